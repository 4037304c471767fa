#!/usr/bin/env bash
# Measures, in one run on one server, requests per second of a lesson page against the bare
# /health route (the "hello world" baseline); the same lesson from a --content folder against
# the built-in one, and the slowest request while a 1,000-puzzle set reloads; then the
# attempt benchmark (Criterion).
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

# Authoring mode: the same lesson served from a content folder (the built-in content and a
# 1,000-puzzle set), then the same lesson while that set is rewritten (and so reloaded) once
# a second: wrk's slowest request during the reloads.
content=$(mktemp -d)
cp -r lessons problems "$content/"
python3 - "$content/problems/go/bench-1000.toml" <<'PY'
import sys
out = ['[set]\ntitle = { zh = "一千题", en = "A thousand" }\n']
for i in range(1000):
    out.append(f'[[problem]]\nid = "{i + 1}"\nprompt = {{ zh = "黑先。", en = "Black to play." }}\nsize = 9\n'
               'board = """\n.........\n.........\n.........\n...X.....\n..XO.....\n...X.....\n.........\n.........\n.........\n"""\n'
               'goal = "best"\ndifficulty = 1\nsolutions = ["E5"]\n')
open(sys.argv[1], "w").write("\n".join(out))
PY
cport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./target/release/qiyuan serve --addr "127.0.0.1:$cport" --content "$content" >/dev/null &
cserver=$!
trap 'kill $server $cserver 2>/dev/null; rm -rf "$content"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$cport/health" >/dev/null && break; sleep 0.1; done
crate() {
  wrk -t2 -c"$conns" -d"${secs}s" "http://127.0.0.1:$cport$1" | awk '/Requests\/sec/ {print $2}'
}
builtin=$(rate "$lesson")
authoring=$(crate "$lesson")
cratio=$(python3 -c "print(f'{$authoring/$builtin:.2f}')")
echo "lesson, built-in:         $builtin req/s"
echo "lesson, --content DIR:    $authoring req/s"
echo "--content / built-in:     $cratio (goal: at least 0.9)"
calm=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$cport$lesson" | awk '/^    Latency/ {print $4}')
echo "slowest request, --content DIR, no reload: $calm"
( for _ in $(seq "$secs"); do echo "# touched $(date +%s%N)" >> "$content/problems/go/bench-1000.toml"; sleep 1; done ) &
toucher=$!
worst=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$cport$lesson" | awk '/^    Latency/ {print $4}')
wait $toucher 2>/dev/null || true
echo "slowest request while the 1,000-puzzle set reloads every second: $worst (goal: under 50ms)"
kill $server $cserver 2>/dev/null || true
rm -rf "$content"
trap - EXIT
cargo bench --quiet --bench attempt -- --noplot 2>/dev/null | grep -E '^attempt|time:'
