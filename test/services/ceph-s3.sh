#!/usr/bin/env bash
# A real S3 server for tests: a single-node Ceph cluster (memstore, loopback only) with the RADOS Gateway,
# from Debian 12's packages. Follows /work/shared/recipes/ceph-s3.md; every file lives under one folder.
#
#   ceph-s3.sh install                                   install the packages when absent (root + apt)
#   ceph-s3.sh start <dir> <mon-port> <s3-port> <key> <secret>
#                                                        start mon, osd and rgw; prints "ready <endpoint>"
#   ceph-s3.sh stop <dir>                                kill what start started (pids from its pid files)
#
# `start` leaves the daemons running in the background and returns; `test/services/s3-server.ts` drives it.
# Exit status 3 means the packages are absent and cannot be installed (the harness then falls back).
set -euo pipefail

log() { printf '[ceph-s3] %s\n' "$*" >&2; }

have_binaries() {
  command -v radosgw >/dev/null && command -v ceph-mon >/dev/null && command -v ceph-osd >/dev/null &&
    command -v radosgw-admin >/dev/null && command -v uuidgen >/dev/null
}

install_packages() {
  if have_binaries; then return 0; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "cannot install radosgw: needs root and apt-get"
    return 3
  fi
  log "installing radosgw ceph-mon ceph-osd uuid-runtime (about 20 s)"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get update -qq >&2 ||
    ! apt-get install -y -qq --no-install-recommends radosgw ceph-mon ceph-osd uuid-runtime >&2 ||
    ! have_binaries; then
    log "apt-get could not install radosgw"
    return 3
  fi
}

# Polls a command until it succeeds or the deadline (seconds) passes.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "timed out waiting for $what"
      return 1
    fi
    sleep 0.2
  done
}

osd_up() { ceph -c "$conf" osd stat 2>/dev/null | grep -q '1 up'; }
# No pid file yet counts as alive: the daemon writes it a moment after it forks.
osd_alive() { [ ! -s "$dir/run/osd.0.pid" ] || kill -0 "$(cat "$dir/run/osd.0.pid")" 2>/dev/null; }
http_up() { exec 3<>"/dev/tcp/127.0.0.1/$s3_port" && exec 3>&-; }

start_cluster() {
  local dir=$1 mon_port=$2 s3_port=$3 key=$4 secret=$5
  conf="$dir/ceph.conf"
  mkdir -p "$dir/run" "$dir/log" "$dir/mon" "$dir/osd/0" "$dir/rgw/a"
  local fsid osd_uuid
  fsid=$(uuidgen)
  osd_uuid=$(uuidgen)
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v1:127.0.0.1:$mon_port
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
ms bind ipv6 = false
run dir = $dir/run
log file = $dir/log/\$name.log
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
keyring = $dir/keyring
[mon.a]
mon data = $dir/mon/a
[osd.0]
osd data = $dir/osd/0
osd objectstore = memstore
memstore device bytes = 2147483648
osd max object name len = 460
osd max object namespace len = 64
[client.rgw.a]
rgw data = $dir/rgw/a
rgw frontends = beast endpoint=127.0.0.1:$s3_port tcp_nodelay=1
EOF
  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
  ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
  ceph-mon -c "$conf" -i a
  wait_for 30 "ceph-mon" ceph -c "$conf" mon stat
  # The OSD must be created with the uuid it is later formatted with, or it stays down ("wrong fsid").
  ceph -c "$conf" osd create "$osd_uuid" >/dev/null
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" 2>/dev/null
  # The first start races the monitor: its first commands can go out before it knows the cluster's fsid
  # ("wrong fsid" in the log) and the daemon exits. Starting it again is enough, so retry as soon as it dies.
  local attempt deadline
  for attempt in 1 2 3 4 5 6; do
    rm -f "$dir/run/osd.0.pid"
    if ceph-osd -c "$conf" -i 0 2>/dev/null; then
      deadline=$((SECONDS + 30))
      while ! osd_up && osd_alive && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
      if osd_up; then break; fi
    fi
    log "ceph-osd start attempt $attempt failed; retrying"
    [ "$attempt" -lt 6 ] || return 1
    sleep 0.5
  done
  radosgw -c "$conf" -n client.rgw.a
  wait_for 60 "radosgw on port $s3_port" http_up
  radosgw-admin -c "$conf" user create --uid=test --display-name=test \
    --access-key="$key" --secret="$secret" >/dev/null
  echo "ready http://127.0.0.1:$s3_port"
}

stop_cluster() {
  local dir=$1 pidfile pid
  for pidfile in "$dir"/run/*.pid; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    # memstore keeps nothing on disk worth a clean shutdown
    kill -9 "$pid" 2>/dev/null || true
  done
}

case "${1:-}" in
install) install_packages ;;
start)
  [ $# -eq 6 ] || { log "usage: $0 start <dir> <mon-port> <s3-port> <key> <secret>"; exit 2; }
  install_packages
  start_cluster "$2" "$3" "$4" "$5" "$6"
  ;;
stop)
  [ $# -eq 2 ] || { log "usage: $0 stop <dir>"; exit 2; }
  stop_cluster "$2"
  ;;
*)
  log "usage: $0 install | start <dir> <mon-port> <s3-port> <key> <secret> | stop <dir>"
  exit 2
  ;;
esac
