#!/usr/bin/env bash
# Installs the prover check.sh needs, idempotently: Debian's dafny (2.3, on Mono) and z3.
# Only the distribution's package registry is used. A Dafny 4 already on PATH (or named by
# SAFECUT_DAFNY) is used as it is.
set -euo pipefail
dafny_cmd="${SAFECUT_DAFNY:-dafny}"
if command -v "$dafny_cmd" >/dev/null 2>&1 && { "$dafny_cmd" --version 2>/dev/null | grep -q '^[4-9]\.' || command -v z3 >/dev/null 2>&1; }; then
  echo "setup-provers: $(command -v "$dafny_cmd") and $(command -v z3 || echo 'its own z3') present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-provers: no apt-get here; install Dafny (4.x, or Debian's 2.3 with z3) and put it on PATH" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup-provers: need root for: apt-get install -y dafny z3" >&2
    exit 1
  fi
fi
echo "setup-provers: installing Debian's dafny and z3 (apt-get)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dafny z3 >/dev/null
command -v dafny >/dev/null && command -v z3 >/dev/null
echo "setup-provers: installed $(command -v dafny) and $(command -v z3)"
