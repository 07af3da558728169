#!/usr/bin/env bash
# Installs the provers check.sh uses, idempotently: z3 and Debian's dafny (2.3, on Mono) from
# the distribution's package registry, and Dafny 4 as a .NET tool (`dotnet tool install
# --global dafny`) when the .NET SDK is present. check.sh verifies with every Dafny installed;
# this script fails only when no Dafny at all is left installed.
set -uo pipefail
dafny_cmd="${SAFECUT_DAFNY:-dafny}"
dafny4="${SAFECUT_DAFNY4:-$HOME/.dotnet/tools/dafny}"
# the Dafny 4 release the proofs were checked with
dafny4_version="${SAFECUT_DAFNY4_VERSION:-4.11.0}"

apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-provers: no apt-get here; install $* yourself" >&2
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup-provers: need root for: apt-get install -y $*" >&2
      return 1
    fi
  fi
  echo "setup-provers: installing $* (apt-get)"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

has_dafny23() { command -v "$dafny_cmd" >/dev/null 2>&1 && ! "$dafny_cmd" --version 2>/dev/null | grep -q '^[4-9]\.'; }
has_dafny4() { [ -x "$dafny4" ] && "$dafny4" --version 2>/dev/null | grep -q '^[4-9]\.'; }

command -v z3 >/dev/null 2>&1 || apt_install z3
if has_dafny23; then
  echo "setup-provers: $(command -v "$dafny_cmd") (Dafny 2.3) and $(command -v z3 || echo 'no z3') present"
else
  apt_install dafny || echo "setup-provers: Debian's dafny (2.3) could not be installed" >&2
fi

if has_dafny4; then
  echo "setup-provers: Dafny $("$dafny4" --version | head -1 | cut -d+ -f1) present ($dafny4)"
elif ! command -v dotnet >/dev/null 2>&1; then
  echo "setup-provers: no dotnet here, so no Dafny 4: check.sh verifies with Dafny 2.3 only"
else
  echo "setup-provers: installing Dafny $dafny4_version (dotnet tool install --global dafny)"
  if dotnet tool install --global dafny --version "$dafny4_version" >/dev/null && has_dafny4; then
    echo "setup-provers: installed Dafny $("$dafny4" --version | head -1 | cut -d+ -f1) ($dafny4)"
  else
    echo "setup-provers: dotnet could not install Dafny 4: check.sh verifies with Dafny 2.3 only" >&2
  fi
fi

if ! has_dafny23 && ! has_dafny4; then
  echo "setup-provers: no Dafny installed; check.sh cannot run" >&2
  exit 1
fi
