#!/usr/bin/env bash
# `make bench` runs this first: installs wrk (Debian's package), the load generator the gateway
# benchmark prefers, when it is absent and this is root with apt-get. Otherwise it says so and the
# benchmark falls back to autocannon (see test/bench/load-generator.ts). Never fails the bench.
set -uo pipefail

if command -v wrk >/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[bench] wrk is not installed and cannot be (needs root and apt-get); the gateway bench uses autocannon" >&2
  exit 0
fi
echo "[bench] installing wrk from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get install -y -qq --no-install-recommends wrk >&2 ||
  { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends wrk >&2; }; }; then
  echo "[bench] apt-get could not install wrk; the gateway bench uses autocannon" >&2
fi
exit 0
