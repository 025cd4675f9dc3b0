#!/usr/bin/env bash
# The README's picture of the explorer (docs/explorer.png) from the browser test's first screen of `/`
# (test-results/explorer/readme-explorer.png, 1280x800, written by `make screenshots`), reduced to a
# 256-colour palette by Debian's pngquant so the repository carries tens of KB, not hundreds. pngquant
# is installed when absent and this is root with apt-get, as install-chromium.sh installs the browser.
set -euo pipefail

log() { printf '[readme-picture] %s\n' "$*" >&2; }

root="$(cd "$(dirname "$0")/../.." && pwd)"
source="$root/test-results/explorer/readme-explorer.png"
target="$root/docs/explorer.png"

if [ ! -f "$source" ]; then
  log "no $source: run \`make screenshots\` first"
  exit 2
fi
if ! command -v pngquant >/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "pngquant is not installed and cannot be (needs root and apt-get)"
    exit 3
  fi
  log "installing Debian's pngquant"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends pngquant >&2 ||
    { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends pngquant >&2; }
fi
# Text on flat colours survives a palette well; --strip drops the metadata (nothing to keep there).
pngquant --force --strip --speed 1 --quality 70-95 --output "$target" -- "$source"
log "wrote $target ($(stat -c %s "$target") bytes)"
