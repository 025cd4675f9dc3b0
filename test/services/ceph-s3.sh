#!/usr/bin/env bash
# A real S3 server for tests: a single-node Ceph cluster (memstore, loopback only) with the RADOS Gateway,
# from Debian 12's packages. Follows /work/shared/recipes/ceph-s3.md; every file lives under one folder.
#
#   ceph-s3.sh install                                   install the packages when absent (root + apt)
#   ceph-s3.sh start <dir> <mon-port> <s3-port> <key> <secret> [<owner-pid>]
#                                                        start mon, osd and rgw; prints "ready <endpoint>";
#                                                        with <owner-pid>, a watchdog stops the daemons and
#                                                        removes <dir> once that process is gone
#   ceph-s3.sh stop <dir>                                kill what start started (pids from its pid files)
#   ceph-s3.sh watch <dir> <owner-pid>                   the watchdog itself (start runs it)
#
# `start` leaves the daemons running in the background and returns; `test/services/s3-server.ts` drives it.
# Exit status 3 means the packages are absent and cannot be installed (the harness then falls back).
#
# Start under load (issue 18). Ceph 16's clients (the OSD, the `ceph` CLI) build their first monitor map
# from the monitor addresses alone, with a zero fsid, and a command they send before the monitor's own map
# arrives carries that zero: the monitor answers "wrong fsid" (its log: "handle_command on fsid 0000...").
# On idle cores the map wins the race; on two busy cores the OSD lost it six times in a row, and it exits
# on that answer. So: the OSD sends no commands at start (`osd crush update on start = false`, `osd class
# update on start = false`) and this script places osd.0 in CRUSH itself; the CLI's one-shot commands are
# retried; the OSD starts only once the monitor answers with the cluster's fsid and the OSD map holds
# osd.0 with its uuid; and the OSD start itself is still retried, with a growing pause, until a deadline.
# radosgw is retried the same way, on a fresh port when it died (the given port can be taken meanwhile),
# so the endpoint to use is the one on the "ready" line.
set -euo pipefail

# Seconds for each phase; they only bound a failure: a healthy start takes about 13 s in all on idle
# cores, 15 to 25 s on two busy ones.
MON_DEADLINE=60
OSD_DEADLINE=90
RGW_DEADLINE=90
# Seconds one OSD attempt may stay alive but not up before it is killed and started again.
OSD_ATTEMPT_PATIENCE=30

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
      log "timed out after ${seconds}s waiting for $what"
      return 1
    fi
    sleep 0.5
  done
}

# Runs a command until it succeeds, pausing 1, 2, 4, 8, 8 ... s after each failure, until the deadline
# (seconds) passes; then shows its last error output and fails.
retry() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds)) pause=1 attempt=1 errors
  errors=$(mktemp)
  until "$@" 2>"$errors" >/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "$what failed for ${seconds}s ($attempt attempts); last error: $(cat "$errors")"
      rm -f "$errors"
      return 1
    fi
    sleep "$pause"
    pause=$((pause >= 4 ? 8 : pause * 2))
    attempt=$((attempt + 1))
  done
  rm -f "$errors"
}

# Without --connect-timeout the CLI waits for an absent monitor for minutes.
ceph_cli() { ceph -c "$conf" --connect-timeout 15 "$@"; }
mon_knows_cluster() { [ "$(ceph_cli fsid 2>/dev/null)" = "$fsid" ]; }
osd_in_map() { ceph_cli osd dump 2>/dev/null | grep -q "^osd\.0 .*$osd_uuid"; }
osd_up() { ceph_cli osd stat 2>/dev/null | grep -q '1 up'; }
daemon_pid() { cat "$dir/run/$1.pid" 2>/dev/null || true; }
# Waits until a check passes (status 0), the daemon <name> is gone (1) or <seconds> have passed (2).
# A daemon writes its pid file a moment after it forks and removes it when it exits, so "gone" is a pid
# once seen that no longer runs; until the file appears it counts as starting.
wait_daemon() {
  local name=$1 until=$((SECONDS + $2)) seen='' pid
  shift 2
  while true; do
    if "$@"; then return 0; fi
    pid=$(daemon_pid "$name")
    if [ -n "$pid" ]; then seen=$pid; fi
    if [ -n "$seen" ] && ! kill -0 "$seen" 2>/dev/null; then return 1; fi
    if [ "$SECONDS" -ge "$until" ]; then return 2; fi
    sleep 0.5
  done
}
kill_daemon() {
  local pid
  pid=$(daemon_pid "$1")
  [ -n "$pid" ] || return 0
  kill -9 "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
# Up means radosgw itself listens on the port (its pid holds the listening socket's inode): the caller
# picked a free port, but any process may take it before radosgw binds, and must not pass for it.
rgw_listening() {
  local pid inode
  pid=$(daemon_pid client.rgw.a)
  [ -n "$pid" ] || return 1
  inode=$(awk -v want="$(printf '0100007F:%04X' "$s3_port")" '$2 == want && $4 == "0A" { print $10 }' /proc/net/tcp)
  [ -n "$inode" ] && [ -n "$(find "/proc/$pid/fd" -lname "socket:\\[$inode\\]" 2>/dev/null)" ]
}
# The ceph CLI is Python, so python3 is there.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A retry after an attempt that created the user but failed later finds it there.
create_user() {
  radosgw-admin -c "$conf" user create --uid=test --display-name=test \
    --access-key="$1" --secret="$2" ||
    radosgw-admin -c "$conf" user info --uid=test
}

# Starts osd.0 until it is up: each failed attempt waits longer (1, 2, 4, 8, 8 ... s) before the next,
# until OSD_DEADLINE seconds have passed; then it gives up and the caller reads the logs.
start_osd() {
  local deadline=$((SECONDS + OSD_DEADLINE)) attempt=0 pause=1
  while true; do
    attempt=$((attempt + 1))
    rm -f "$dir/run/osd.0.pid"
    # The parent returns once the daemon's init is done, non-zero when init failed.
    if ceph-osd -c "$conf" -i 0 2>>"$dir/log/ceph-osd.stderr" &&
      wait_daemon osd.0 "$OSD_ATTEMPT_PATIENCE" osd_up; then
      [ "$attempt" -eq 1 ] || log "ceph-osd up at attempt $attempt"
      return 0
    fi
    kill_daemon osd.0
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "ceph-osd did not come up within ${OSD_DEADLINE}s ($attempt attempts)"
      return 1
    fi
    log "ceph-osd start attempt $attempt failed; retrying in ${pause}s"
    sleep "$pause"
    pause=$((pause >= 4 ? 8 : pause * 2))
  done
}

# Starts radosgw until it listens on the S3 port, retrying like start_osd until RGW_DEADLINE. A radosgw
# that died is started on a fresh port: the usual cause is "failed to bind" (the port was taken meanwhile).
start_rgw() {
  local deadline=$((SECONDS + RGW_DEADLINE)) attempt=0 pause=1
  while true; do
    attempt=$((attempt + 1))
    rm -f "$dir/run/client.rgw.a.pid"
    if radosgw -c "$conf" -n client.rgw.a 2>>"$dir/log/radosgw.stderr" &&
      wait_daemon client.rgw.a $((deadline - SECONDS)) rgw_listening; then
      [ "$attempt" -eq 1 ] || log "radosgw up at attempt $attempt"
      return 0
    fi
    kill_daemon client.rgw.a
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "radosgw did not listen on port $s3_port within ${RGW_DEADLINE}s ($attempt attempts)"
      return 1
    fi
    s3_port=$(free_port)
    sed -i "s|^rgw frontends = .*|rgw frontends = beast endpoint=127.0.0.1:$s3_port tcp_nodelay=1|" "$conf"
    log "radosgw start attempt $attempt failed; retrying on port $s3_port in ${pause}s"
    sleep "$pause"
    pause=$((pause >= 4 ? 8 : pause * 2))
  done
}

write_conf() {
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
# No monitor commands from the OSD at start (see the top of this script); start_cluster does their work.
osd crush update on start = false
osd class update on start = false
[client.rgw.a]
rgw data = $dir/rgw/a
rgw frontends = beast endpoint=127.0.0.1:$s3_port tcp_nodelay=1
EOF
}

start_cluster() {
  dir=$1 mon_port=$2 s3_port=$3
  local key=$4 secret=$5 owner=${6:-}
  conf="$dir/ceph.conf"
  mkdir -p "$dir/run" "$dir/log" "$dir/mon" "$dir/osd/0" "$dir/rgw/a"
  if [ -n "$owner" ]; then
    # Its own session and no inherited pipes: it outlives this script and does not hold its output open.
    setsid -f bash "$0" watch "$dir" "$owner" </dev/null >/dev/null 2>&1
  fi
  fsid=$(uuidgen)
  osd_uuid=$(uuidgen)
  write_conf
  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
  ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
  ceph-mon -c "$conf" -i a
  wait_for "$MON_DEADLINE" "ceph-mon to answer with fsid $fsid" mon_knows_cluster
  log "ceph-mon up at ${SECONDS}s"
  # The OSD must be created with the uuid it is later formatted with, or it stays down ("wrong fsid").
  # Both commands are idempotent, so a retry after a lost race (see the top) is safe.
  retry "$MON_DEADLINE" "ceph osd create" ceph_cli osd create "$osd_uuid"
  # What the OSD would do at start, were it allowed: without a CRUSH place no PG maps to it.
  retry "$MON_DEADLINE" "ceph osd crush create-or-move" \
    ceph_cli osd crush create-or-move osd.0 1.0 host=localhost root=default
  wait_for "$MON_DEADLINE" "the OSD map to hold osd.0 with uuid $osd_uuid" osd_in_map
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" 2>/dev/null
  start_osd
  log "ceph-osd up at ${SECONDS}s"
  start_rgw
  retry "$RGW_DEADLINE" "radosgw-admin user create" create_user "$key" "$secret"
  log "radosgw up at ${SECONDS}s"
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

# Stops the cluster once <owner> exits without calling stop (killed test run); ends early when the
# folder is gone (a normal stop removed it).
watch_owner() {
  local dir=$1 owner=$2
  while kill -0 "$owner" 2>/dev/null && [ -d "$dir" ]; do sleep 2; done
  stop_cluster "$dir"
  # Only a folder this script set up.
  if [ -f "$dir/ceph.conf" ]; then rm -rf -- "$dir"; fi
}

case "${1:-}" in
install) install_packages ;;
start)
  [ $# -eq 6 ] || [ $# -eq 7 ] || {
    log "usage: $0 start <dir> <mon-port> <s3-port> <key> <secret> [<owner-pid>]"
    exit 2
  }
  install_packages
  start_cluster "$2" "$3" "$4" "$5" "$6" "${7:-}"
  ;;
stop)
  [ $# -eq 2 ] || { log "usage: $0 stop <dir>"; exit 2; }
  stop_cluster "$2"
  ;;
watch)
  [ $# -eq 3 ] || { log "usage: $0 watch <dir> <owner-pid>"; exit 2; }
  watch_owner "$2" "$3"
  ;;
*)
  log "usage: $0 install | start <dir> <mon-port> <s3-port> <key> <secret> [<owner-pid>] | stop <dir>"
  exit 2
  ;;
esac
