#!/usr/bin/env bash
# The dashboard's browser tests (test/e2e/dashboard*.test.ts) drive Debian's chromium through playwright-core;
# install Debian's package when missing (CHROMIUM_PATH overrides where the tests look for it).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
echo "chromium not found: installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null
command -v chromium >/dev/null
