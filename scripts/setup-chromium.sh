#!/usr/bin/env bash
# Installs Debian's chromium package when /usr/bin/chromium is absent: the inspector's tests
# (test/cli/inspect.test.ts) open the page it writes in headless Chromium. Idempotent; starts
# nothing (each test runs its own headless browser and it exits with the page rendered).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "setup-chromium: /usr/bin/chromium present"
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup-chromium: need root for: apt-get install -y chromium" >&2
    exit 1
  fi
fi
echo "setup-chromium: installing chromium (apt-get)"
$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium
