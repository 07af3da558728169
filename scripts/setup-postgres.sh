#!/usr/bin/env bash
# Installs Debian's postgresql package when no PostgreSQL server binaries are present
# (/usr/lib/postgresql/*/bin/initdb): the session suites start their own throwaway server with
# them (scripts/pg-server.ts). Idempotent; never starts or configures the system's server.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "setup-postgres: $(ls -d /usr/lib/postgresql/*/bin | tail -1) present"
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup-postgres: need root for: apt-get install -y postgresql" >&2
    exit 1
  fi
fi
echo "setup-postgres: installing postgresql (apt-get)"
$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y postgresql
