#!/usr/bin/env bash
# The article-quality bench serves Debian's reference manual (English, French, German, Spanish) as local websites,
# and the held-out probe Debian's FAQ (English, French, German) and New Maintainers' Guide (Spanish, French,
# German), and the relevance bench reads the Developer's Reference (English, French, German) as a focused book
# with a reader's labels; install Debian's debian-reference-{en,fr,de,es}, debian-faq{,-fr,-de},
# maint-guide-{es,fr,de} and developers-reference{,-fr,-de} packages when their pages are missing, and valgrind,
# whose manual (a programmer's tool, not Debian) is the probe's third crawled site.
set -euo pipefail
DIR=/usr/share/debian-reference
FAQ=/usr/share/doc/debian/FAQ
missing=()
for lang in en fr de es; do
  [ -f "$DIR/index.$lang.html" ] && [ -f "$DIR/ch02.$lang.html" ] || missing+=("debian-reference-$lang")
done
[ -f "$FAQ/index.en.html" ] || missing+=("debian-faq")
for lang in fr de; do
  [ -f "$FAQ/$lang/index.$lang.html" ] || missing+=("debian-faq-$lang")
done
GUIDE=/usr/share/doc
for lang in es fr de; do
  [ -f "$GUIDE/maint-guide-$lang/html/index.$lang.html" ] || missing+=("maint-guide-$lang")
done
DEVREF=/usr/share/developers-reference
[ -f "$DEVREF/pkgs.html" ] || missing+=("developers-reference")
for lang in fr de; do
  [ -f "$DEVREF/$lang/pkgs.html" ] || missing+=("developers-reference-$lang")
done
[ -f /usr/share/doc/valgrind/html/mc-manual.html ] || missing+=("valgrind")
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "Debian manual pages not found: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
for lang in en fr de es; do test -f "$DIR/index.$lang.html"; done
for lang in fr de; do test -f "$FAQ/$lang/index.$lang.html"; done
test -f "$FAQ/index.en.html"
for lang in es fr de; do test -f "$GUIDE/maint-guide-$lang/html/index.$lang.html"; done
test -f "$DEVREF/pkgs.html"
for lang in fr de; do test -f "$DEVREF/$lang/pkgs.html"; done
