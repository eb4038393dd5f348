#!/usr/bin/env bash
# Installs node_modules exactly as package-lock.json says (`npm ci`), unless the installed tree already
# came from this very package.json and package-lock.json. `npm ci` never rewrites the lockfile (it fails
# when package.json and the lockfile disagree) but always wipes node_modules first, so it runs only when
# node_modules is missing or was installed from other manifests (docs/decisions.md#installs).
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.installed-from.sha256
digest() {
  if command -v sha256sum >/dev/null; then sha256sum package.json package-lock.json; else shasum -a 256 package.json package-lock.json; fi | awk '{print $1}' | tr -d '\n'
}
want=$(digest)
if [ -d node_modules ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "Installing dependencies from package-lock.json (npm ci)…" >&2
npm ci --no-audit --no-fund --loglevel=error
printf '%s\n' "$want" > "$stamp"
