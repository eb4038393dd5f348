#!/usr/bin/env bash
# Service and e2e tests start their own nats-server on a free port; install Debian's package when missing.
set -euo pipefail
if command -v nats-server >/dev/null 2>&1; then exit 0; fi
echo "nats-server not found: installing Debian's nats-server package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq nats-server >/dev/null
command -v nats-server >/dev/null
