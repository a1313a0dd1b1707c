#!/usr/bin/env bash
# Stops a test server started by start-mongo.sh:  stop-mongo.sh "$MONGO_SERVER_PID"
# Sends SIGTERM, waits up to 10 s, then SIGKILL. Refuses a pid that is not this server
# (a stale pid may have been reused by another process). A pid that is already gone is
# not an error.
set -euo pipefail

pid="${1:-}"
if [[ ! "$pid" =~ ^[0-9]+$ ]]; then
  echo "usage: stop-mongo.sh <pid printed by start-mongo.sh>" >&2
  exit 2
fi
if ! kill -0 "$pid" 2>/dev/null; then
  exit 0
fi
if [[ -r "/proc/$pid/cmdline" ]] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'mongo-test-server.jar'; then
  echo "stop-mongo.sh: pid $pid is not the Mongo test server; left alone" >&2
  exit 1
fi

kill -TERM "$pid" 2>/dev/null || exit 0
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || exit 0
  sleep 0.1
done
echo "stop-mongo.sh: pid $pid ignored SIGTERM for 10 s; killing it" >&2
kill -KILL "$pid" 2>/dev/null || true
