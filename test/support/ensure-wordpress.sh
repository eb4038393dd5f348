#!/usr/bin/env bash
# The WordPress e2e test runs a real WordPress 6.x under PHP's built-in server with MariaDB on a private
# data dir (test/support/wordpress.ts). This installs what it needs when missing: Debian's MariaDB server
# binaries and PHP, and the files of Debian's `wordpress` package, unpacked (not installed: installing it
# pulls in a web server) into WORDPRESS_CACHE_DIR.
set -euo pipefail
CACHE_DIR="${WORDPRESS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/article-platform/wordpress}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

missing=()
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server-core mariadb-client-core)
command -v php >/dev/null 2>&1 || missing+=(php-cli)
if command -v php >/dev/null 2>&1; then
  for ext in mysqli gd xml mbstring curl; do php -m 2>/dev/null | grep -qix "$ext" || missing+=("php-$ext"); done
else
  missing+=(php-mysql php-gd php-xml php-mbstring php-curl)
fi
# php-mysqli ships in php-mysql
missing=("${missing[@]/php-mysqli/php-mysql}")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "WordPress e2e: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$CACHE_DIR/usr/share/wordpress/wp-includes/version.php" ]; then
  echo "WordPress e2e: unpacking Debian's wordpress package into $CACHE_DIR" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download wordpress >/dev/null 2>&1 || { $SUDO apt-get update -qq && apt-get download wordpress >/dev/null; })
  rm -rf "$CACHE_DIR.partial" && mkdir -p "$CACHE_DIR.partial"
  dpkg -x "$work"/wordpress_*.deb "$CACHE_DIR.partial"
  rm -rf "$CACHE_DIR" && mkdir -p "$(dirname "$CACHE_DIR")" && mv "$CACHE_DIR.partial" "$CACHE_DIR"
fi
test -x /usr/sbin/mariadbd || command -v mariadbd >/dev/null
php -m | grep -qix mysqli
