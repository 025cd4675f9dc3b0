#!/usr/bin/env bash
# `make bench` runs this first: installs nginx (Debian's package), the second baseline of the gateway
# benchmark, when it is absent and this is root with apt-get. Otherwise it says so and the gateway
# bench reports against the bare node:http server only. Never fails the bench.
set -uo pipefail

if [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[bench] nginx is not installed and cannot be (needs root and apt-get); the gateway bench skips it" >&2
  exit 0
fi
echo "[bench] installing nginx from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get install -y -qq --no-install-recommends nginx >&2 ||
  { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends nginx >&2; }; }; then
  echo "[bench] apt-get could not install nginx; the gateway bench skips it" >&2
fi
# The package may start a service on port 80; the bench runs its own instance and needs none.
exit 0
