#!/usr/bin/env bash
# Install the Debian packages Crewbuilder needs, only when missing.
#
#   scripts/system-deps.sh run    what the app needs to print PDFs fast
#   scripts/system-deps.sh test   that, plus what the test suite needs
#
# libharfbuzz-subset0: WeasyPrint subsets the embedded fonts with it; without
# it WeasyPrint falls back to fontTools (deprecated, and about 10x slower on a
# one-page PDF). The app still works without it, so for `run` a failed
# install is a warning, not an error.
set -euo pipefail
mode="${1:-test}"
missing=()
ldconfig -p 2>/dev/null | grep -q 'libharfbuzz-subset\.so' || missing+=(libharfbuzz-subset0)
if [ "$mode" = "test" ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
  fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "Installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
install() {
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
}
if [ "$mode" = "run" ]; then
  install || echo "warning: could not install ${missing[*]}; PDFs will render more slowly (WeasyPrint falls back to fontTools)." >&2
else
  install
fi
