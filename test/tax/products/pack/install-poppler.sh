#!/bin/sh
# Installs Debian's poppler-utils (pdftotext, pdftoppm: about 1 MB with its libraries) when missing.
set -e
if command -v pdftotext >/dev/null 2>&1; then exit 0; fi
# Test files run in parallel and may all find it missing: one installs, the others wait for it and then find
# it there (two apt-get runs at once fail on dpkg's lock).
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/sbm-install-poppler.lock"
  flock 9
  if command -v pdftotext >/dev/null 2>&1; then exit 0; fi
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "pdftotext is missing: install poppler-utils (apt-get install poppler-utils)" >&2
  exit 1
fi
echo "installing poppler-utils (pdftotext, pdftoppm) with apt-get..." >&2
apt-get install -y --no-install-recommends poppler-utils >/dev/null 2>&1 || {
  apt-get update >/dev/null 2>&1
  apt-get install -y --no-install-recommends poppler-utils >/dev/null
}
