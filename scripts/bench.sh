#!/usr/bin/env bash
# Measures, in one run on one server, requests per second of a lesson page against the bare
# /health route (the "hello world" baseline), then the attempt benchmark (Criterion).
# Needs wrk (apt-get install wrk). Usage: scripts/bench.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-64}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cargo build --release --quiet
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./target/release/qiyuan serve --addr "127.0.0.1:$port" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
lesson=/go/lessons/captures
bytes=$(curl -s "http://127.0.0.1:$port$lesson" | wc -c)
rate() {
  wrk -t2 -c"$conns" -d"${secs}s" "http://127.0.0.1:$port$1" | awk '/Requests\/sec/ {print $2}'
}
wrk -t2 -c"$conns" -d2s "http://127.0.0.1:$port/health" >/dev/null   # warm up
hello=$(rate /health)
page=$(rate "$lesson")
ratio=$(python3 -c "print(f'{$page/$hello:.2f}')")
echo "connections: $conns, ${secs}s each, $(nproc) cores shared by server and wrk"
echo "hello (/health):          $hello req/s"
echo "lesson ($lesson, $bytes bytes): $page req/s"
echo "lesson / hello:           $ratio (goal: at least 0.5)"
kill $server 2>/dev/null || true
trap - EXIT
cargo bench --quiet --bench attempt -- --noplot 2>/dev/null | grep -E '^attempt|time:'
