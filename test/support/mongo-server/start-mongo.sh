#!/usr/bin/env bash
# Starts the MongoDB-wire test server (see MongoTestServer.java) on a free 127.0.0.1 port,
# building it first when the jar is missing or older than its sources, and prints two
# lines for the caller to eval:
#
#   eval "$(test/support/mongo-server/start-mongo.sh)"
#   # -> export MONGODB_URL=mongodb://127.0.0.1:<port>
#   #    export MONGO_SERVER_PID=<pid>
#   ...
#   test/support/mongo-server/stop-mongo.sh "$MONGO_SERVER_PID"
#
# Only those two lines go to stdout; Maven output and errors go to stderr, and the
# server's own log to target/server-<pid>.log. Exits non-zero if it cannot start.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/mongo-test-server.jar"
timeout_s="${MONGO_SERVER_START_TIMEOUT:-30}"

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "start-mongo.sh: '$tool' is not on PATH (needs a JDK 17+ and Maven)" >&2
    exit 1
  fi
done

if [[ ! -f "$jar" ]] || [[ -n "$(find "$here/pom.xml" "$here/src" -newer "$jar" -type f -print -quit)" ]]; then
  echo "start-mongo.sh: building $jar" >&2
  (cd "$here" && mvn -q -B -Dstyle.color=never package -DskipTests) >&2
fi

mkdir -p "$here/target"
log="$(mktemp "$here/target/server-XXXXXX.log")"
# stdin from /dev/null and --detached: the server outlives this script; stdout/stderr go to
# the log so that "$(start-mongo.sh)" does not wait for the server to close them.
nohup java -jar "$jar" 0 --detached </dev/null >"$log" 2>&1 &
pid=$!
final_log="$here/target/server-$pid.log"
mv "$log" "$final_log"
log="$final_log"

fail() {
  echo "start-mongo.sh: $1" >&2
  sed 's/^/  server: /' "$log" >&2 || true
  kill "$pid" 2>/dev/null || true
  exit 1
}

deadline=$((SECONDS + timeout_s))
url=""
while [[ -z "$url" ]]; do
  kill -0 "$pid" 2>/dev/null || fail "the server exited before it was listening"
  ((SECONDS < deadline)) || fail "no MONGO_URL line within ${timeout_s}s"
  url="$(sed -n 's/^MONGO_URL=//p' "$log" | head -n 1)"
  [[ -n "$url" ]] || sleep 0.1
done

# The line is printed after bind(); still, prove a client can connect before handing it out.
port="${url##*:}"
until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || fail "the server exited before accepting connections"
  ((SECONDS < deadline)) || fail "port $port did not accept a connection within ${timeout_s}s"
  sleep 0.1
done

echo "export MONGODB_URL=$url"
echo "export MONGO_SERVER_PID=$pid"
