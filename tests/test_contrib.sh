#!/usr/bin/env bash
# test_contrib.sh PILFER - contrib/'s files as a host uses them: the systemd unit passes
# `systemd-analyze verify` with not one warning (an unknown key or a missing binary is a warning
# there, so any output fails), pointed at the built binary. Without systemd-analyze it fails:
# scripts/deps installs systemd.
set -u
PILFER=$1
HERE=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failed=0
command -v systemd-analyze >/dev/null || { echo "FAIL systemd-analyze is not installed (scripts/deps)"; exit 1; }
verify() { # NAME UNIT-FILE: must verify silently
  if systemd-analyze verify --man=no "$2" >"$T/out" 2>&1 && [ ! -s "$T/out" ]; then echo "ok   $1"
  else failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/     /' "$T/out"; fi
}
for unit in pilfer.service pilfer-backup.service pilfer-backup.timer; do
  sed "s#/usr/local/bin/pilfer#$PILFER#" "$HERE/contrib/$unit" >"$T/$unit"
done
verify "contrib/pilfer.service verifies" "$T/pilfer.service"
verify "contrib/pilfer-backup.service verifies" "$T/pilfer-backup.service"
verify "contrib/pilfer-backup.timer verifies" "$T/pilfer-backup.timer"
# the check can fail: a unit with a key systemd does not know is caught
mkdir "$T/bad"
{ cat "$T/pilfer.service"; echo "NoSuchKey=1"; } >"$T/bad/pilfer.service"
if systemd-analyze verify --man=no "$T/bad/pilfer.service" >"$T/out" 2>&1 && [ ! -s "$T/out" ]; then
  failed=$((failed + 1)); echo "FAIL a unit with an unknown key passed the check"
else echo "ok   a unit with an unknown key is caught"; fi
grep -q "ExecStart=$PILFER serve " "$T/pilfer.service" && echo "ok   the unit starts pilfer serve" ||
  { failed=$((failed + 1)); echo "FAIL the unit does not start pilfer serve"; }
# the backup runs as the server's user (a dynamic user is shared by name) and reads its database
u1=$(grep -x 'User=.*' "$T/pilfer.service") u2=$(grep -x 'User=.*' "$T/pilfer-backup.service")
if [ -n "$u1" ] && [ "$u1" = "$u2" ] && grep -q -- "--db %S/pilfer/pilfer.db" "$T/pilfer-backup.service" &&
  grep -q -- "--db \${STATE_DIRECTORY}/pilfer.db" "$T/pilfer.service" && grep -qx "StateDirectory=pilfer" "$T/pilfer.service"; then
  echo "ok   the backup unit reads the server's database as the server's user"
else failed=$((failed + 1)); echo "FAIL the backup unit and the server's differ in user or database"; fi
[ "$failed" = 0 ]
