#!/usr/bin/env bash
# The browser tests' browser: Debian's `chromium` package, driven by puppeteer-core (which downloads no
# browser of its own). Installed here when absent and this is root with apt-get, as test/services/ceph-s3.sh
# installs Ceph. Prints the browser's path on stdout; exit status 3 when it is absent and cannot be
# installed: the browser tests then skip with a loud notice (test/web/browser.ts), never silently.
set -uo pipefail

log() { printf '[chromium] %s\n' "$*" >&2; }

find_browser() {
  for candidate in "${SBM_CHROMIUM:-}" chromium chromium-browser; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

if find_browser; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  log "chromium is not installed and cannot be (needs root and apt-get)"
  exit 3
fi
log "installing Debian's chromium (about 100 MB with its libraries; 30-90 s)"
export DEBIAN_FRONTEND=noninteractive
# Try without refreshing the package lists first: a recent `apt-get update` (the Ceph install runs one)
# makes the second one unnecessary.
if ! { apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2 ||
  { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2; }; }; then
  log "apt-get could not install chromium"
  exit 3
fi
if find_browser; then exit 0; fi
log "chromium installed but not found on PATH"
exit 3
