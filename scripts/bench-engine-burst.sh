#!/usr/bin/env bash
# The server under a burst of engine games (issue 43 item 4): 30 chess games against the
# installed Stockfish created at once, the learner Black so that the engine moves first, while
# one client asks GET /health back to back; then every game is resigned. For each binary:
# /health's p50, p99 and max during the burst (and at rest before it, 200 requests), how long
# the 30 creates took and how many were answered 201 (the server answers 408 after 10 s), the
# most engine processes and their memory seen during the burst (sampled every 50 ms); then 30
# more games created one after another: the engine processes and memory they hold, and the
# processes left once all are resigned.
# Usage: scripts/bench-engine-burst.sh [OLD] [NEW] [ROUNDS]
#   OLD: the baseline binary, a release build of the commit to compare with (required)
#   NEW: this tree's release binary (default target/release/qiyuan: cargo build --release)
#   ROUNDS: bursts per binary, taken in turns (default 3); the table gives the median round.
# Loopback only; every loop is bounded. Needs curl and /usr/games/stockfish.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?give the baseline binary: a release build of the commit to compare with}
new=${2:-${CARGO_TARGET_DIR:-target}/release/qiyuan}
rounds=${3:-3}
games=30
[ -x "$old" ] || { echo "no baseline binary at $old" >&2; exit 1; }
[ -x "$new" ] || { echo "no binary at $new: cargo build --release --bin qiyuan" >&2; exit 1; }
[ -x /usr/games/stockfish ] || { echo "needs /usr/games/stockfish" >&2; exit 1; }

work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  for p in $(seq 18100 18199); do
    if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo $p; return; fi
  done
  echo "no free port" >&2; exit 1
}

# Percentile $1 (0-100) of the numbers on stdin, in ms.
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int((NR*p+99)/100); if (i<1) i=1; printf "%.2f", a[i]*1000}'; }

# The server's engine children: count and total RSS in MB.
engines_of() {
  ps --ppid "$1" -o comm=,rss= 2>/dev/null |
    awk '$1 == "stockfish" {n++; kb += $2} END {printf "%d %d\n", n, kb / 1024}'
}

# Resigns every game whose creation answer is in one of the files $2…, on server $1.
resign_all() {
  local base=$1 f id token
  shift
  for f in "$@"; do
    id=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$f")
    token=$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$f")
    [ -n "$id" ] && curl -s -o /dev/null -H 'content-type: application/json' \
      -d "{\"token\":\"$token\",\"move\":\"resign\"}" "$base/api/games/$id/moves"
  done
  return 0
}

create_game() {
  curl -s -m 60 -H 'content-type: application/json' \
    -d '{"game":"chess","opponent":"computer","engine":"installed","level":1,"color":"black"}' \
    "$1/api/games"
}

# One round with binary $1: prints "rest_p50 rest_p99 p50 p99 max burst_s peak_n peak_mb left
# created held held_mb".
round() {
  local bin=$1 port data
  port=$(free_port)
  data="$work/data-$RANDOM"
  "$bin" serve --addr 127.0.0.1:$port --data "$data" --engine chess=/usr/games/stockfish \
    >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.05
  done
  local base="http://127.0.0.1:$port"
  # At rest: 200 requests.
  for _ in $(seq 1 10); do
    curl -s -w '\n%{time_total}\n' "$base/health?n=[1-20]" | grep -E '^[0-9.]+$'
  done >"$work/rest"
  # The burst: 30 creates at once, while one client asks /health back to back and the
  # server's engine children are sampled every 50 ms (each loop at most 3,000 times), until
  # every create has been answered.
  rm -f "$work"/created-* "$work/stop"
  : >"$work/burst"
  : >"$work/engines"
  (for _ in $(seq 1 300); do
     [ -e "$work/stop" ] && break
     # 20 requests on one kept-alive connection: the body `ok`, then each one's time.
     curl -s -m 30 -w '\n%{time_total}\n' "$base/health?n=[1-20]" | grep -E '^[0-9.]+$' >>"$work/burst"
   done) &
  local pinger=$!
  (for _ in $(seq 1 3000); do
     [ -e "$work/stop" ] && break
     engines_of "$server" >>"$work/engines"
     sleep 0.05
   done) &
  local sampler=$!
  local start end pids=()
  start=$(date +%s.%N)
  for i in $(seq 1 $games); do
    create_game "$base" >"$work/created-$i" &
    pids+=($!)
  done
  wait "${pids[@]}" || true
  end=$(date +%s.%N)
  touch "$work/stop"
  wait "$pinger" "$sampler" || true
  local peak_n peak_mb
  peak_n=$(awk 'BEGIN {m=0} $1 > m {m=$1} END {print m}' "$work/engines")
  peak_mb=$(awk 'BEGIN {m=0} $2 > m {m=$2} END {print m}' "$work/engines")
  local made
  made=$(grep -l '"token"' "$work"/created-* | wc -l)
  echo "  $made of $games created; $(wc -l <"$work/burst") /health answers; $(wc -l <"$work/engines") samples of the engines" >&2
  resign_all "$base" "$work"/created-*
  # Then 30 games one after another (each answered before the next), and all resigned.
  rm -f "$work"/seq-*
  for i in $(seq 1 $games); do
    create_game "$base" >"$work/seq-$i"
  done
  local held held_mb left
  read -r held held_mb < <(engines_of "$server")
  resign_all "$base" "$work"/seq-*
  sleep 0.5
  read -r left _ < <(engines_of "$server")
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  cp "$work/server.log" "${QIYUAN_BENCH_LOG:-/dev/null}" 2>/dev/null || true
  printf '%s %s %s %s %s %.2f %s %s %s %s %s %s\n' \
    "$(pct 50 <"$work/rest")" "$(pct 99 <"$work/rest")" \
    "$(pct 50 <"$work/burst")" "$(pct 99 <"$work/burst")" "$(pct 100 <"$work/burst")" \
    "$(echo "$end - $start" | bc)" "$peak_n" "$peak_mb" "$left" "$made" "$held" "$held_mb"
}

for r in $(seq 1 "$rounds"); do
  for who in old new; do
    bin=$([ $who = old ] && echo "$old" || echo "$new")
    line=$(round "$bin")
    echo "round $r $who: $line" >&2
    echo "$line" >>"$work/$who"
  done
done

echo
echo "| binary | /health p50 at rest | p99 at rest | /health p50 in the burst | p99 in the burst | max | 30 creates took | created (201) | engine processes in the burst (most) | their memory | 30 games one by one: processes | their memory | processes after all resigned |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for who in old new; do
  # The median round by p99 in the burst.
  sort -k4 -n "$work/$who" | awk -v n="$rounds" -v who="$who" 'NR == int((n+1)/2) {
    printf "| %s | %s ms | %s ms | %s ms | %s ms | %s ms | %s s | %s | %s | %s MB | %s | %s MB | %s |\n",
      (who == "old" ? "before (main)" : "after"), $1, $2, $3, $4, $5, $6, $10, $7, $8, $11, $12, $9 }'
done
