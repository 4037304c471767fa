#!/usr/bin/env bash
# Times start-up to the first answers, in one run: the `qiyuan` binary of a baseline commit
# (default: where this branch left main) against this tree's, each serving a `--content`
# folder of the built-in content plus 1,000 Lichess puzzles and 600 tanuki tsume imported from
# the corpus with the importers. A start is timed from spawning the server to its first 200 on
# `/` and then on a tsume problem page; the two binaries take turns, RUNS starts each.
# Usage: scripts/bench-startup.sh [baseline-commit] [runs]   (needs python3 and the corpus
# in $QIYUAN_CORPUS, default ../shared/corpus). Goal: under 300 ms.
# QIYUAN_BENCH_OLD=PATH and QIYUAN_BENCH_NEW=PATH time those `qiyuan` binaries instead of
# building the baseline's and this tree's (a release build of the crate takes minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export QIYUAN_CORPUS=${QIYUAN_CORPUS:-$(cd .. && pwd)/shared/corpus}
base=${1:-$(git merge-base HEAD main)}
runs=${2:-3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$base" | tar -x -C "$work" --one-top-level=baseline
mkdir "$work/tree"
git ls-files -z | xargs -0 tar -c | tar -x -C "$work/tree"
# One target folder for both, so that the dependencies are built once; each copy's files are
# touched first, so that cargo (which goes by modification times) builds it afresh.
export CARGO_TARGET_DIR="$root/target/bench-baseline"
for who in baseline tree; do
  given=$([ $who = baseline ] && echo "${QIYUAN_BENCH_OLD:-}" || echo "${QIYUAN_BENCH_NEW:-}")
  if [ -n "$given" ]; then
    cp "$given" "$work/qiyuan-$who"
    continue
  fi
  echo "building qiyuan ($who$([ $who = baseline ] && echo " at $(git rev-parse --short "$base")"), release) ..." >&2
  find "$work/$who" -type f -exec touch {} +
  (cd "$work/$who" && cargo build --release --locked --quiet --bin qiyuan)
  cp "$CARGO_TARGET_DIR/release/qiyuan" "$work/qiyuan-$who"
done
old="$work/qiyuan-baseline"
new="$work/qiyuan-tree"

content="$work/content"
mkdir -p "$content"
cp -r "$work/tree/lessons" "$work/tree/problems" "$content/"
echo "importing 1,000 Lichess puzzles and 600 tsume (checked, so proven once) ..." >&2
"$new" import lichess "$QIYUAN_CORPUS/chess/lichess-1000.csv" --limit 1000 --set lichess-bench \
  --out "$content/problems/chess/lichess-bench.toml" >/dev/null 2>&1
"$new" import sfen "$QIYUAN_CORPUS/shogi/tanuki-tsume.jsonl" --limit 600 --set tsume-bench \
  --out "$content/problems/shogi/tsume-bench.toml" >/dev/null 2>&1
problems=$(grep -c '^\[\[problem\]\]' "$content"/problems/*/*.toml | awk -F: '{s += $2} END {print s}')
tsume=$(grep -m1 '^id = ' "$content/problems/shogi/tsume-bench.toml" | sed 's/id = "\(.*\)"/\1/')
echo "content: $problems problems; timing $runs starts of each binary ..." >&2

python3 - "$old" "$new" "$content" "/shogi/problems/tsume-bench/$tsume" "$runs" <<'PY'
import socket, statistics, subprocess, sys, time, urllib.request, urllib.error

old, new, content, problem, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def first_200(url, deadline):
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    r.read()
                    return True
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.002)
    return False

def start(binary):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    server = subprocess.Popen([binary, "serve", "--addr", f"127.0.0.1:{port}", "--content", content],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = t0 + 300
        ok = first_200(base + "/", deadline)
        home = time.monotonic() - t0
        ok = ok and first_200(base + problem, deadline)
        page = time.monotonic() - t0
        if not ok:
            raise SystemExit(f"{binary} did not answer within 300 s")
        return home, page
    finally:
        server.terminate()
        server.wait()

times = {"old": [], "new": []}
for _ in range(runs):
    for who, binary in (("old", old), ("new", new)):
        times[who].append(start(binary))
ms = lambda s: f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"
print("| binary | starts | first 200 on / (median) | then the tsume page (median) | worst |")
print("|---|---|---|---|---|")
for who in ("old", "new"):
    homes = [h for h, _ in times[who]]
    pages = [p for _, p in times[who]]
    print(f"| {who} | {runs} | {ms(statistics.median(homes))} | {ms(statistics.median(pages))} | {ms(max(pages))} |")
o = statistics.median(p for _, p in times["old"])
n = statistics.median(p for _, p in times["new"])
print(f"\nnew / old: {n / o:.3f}; new median {ms(n)} (goal: under 300 ms)")
PY
