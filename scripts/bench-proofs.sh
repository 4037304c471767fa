#!/usr/bin/env bash
# Times the proofs content loading runs, in one run: benches/proofs.rs built against a
# baseline commit's search (default: where this branch left main) and against this tree,
# and cshogi's df-pn on the same tsume (pip install cshogi). Prints each set's total,
# median and worst time, the ratios, and whether both builds prove the same first moves
# (the tree's chess mates a second time on one thread: mates in 4 and longer use every core).
# Usage: scripts/bench-proofs.sh [baseline-commit]   (needs python3; the corpus in
# $QIYUAN_CORPUS, default ../shared/corpus). The baseline runs chess mates up to 5 moves
# only (mate in 6 takes it minutes per position); QIYUAN_BENCH_LONGEST changes that.
# QIYUAN_BENCH_OLD=PATH runs that bench binary as the baseline instead of building one
# (e.g. a copy of target/release/deps/proofs-* kept from a build of the baseline commit).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export QIYUAN_CORPUS=${QIYUAN_CORPUS:-$(cd .. && pwd)/shared/corpus}
base=${1:-$(git merge-base HEAD main)}
python3 -c 'import cshogi' 2>/dev/null || { echo "cshogi is missing: pip install cshogi" >&2; exit 1; }

# The bench binary's path, from cargo's build messages.
bench_binary() {
  cargo bench --locked --no-run --bench proofs --message-format=json "$@" 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "proofs" and m.get("executable"):
        print(m["executable"])'
}

if [ -n "${QIYUAN_BENCH_OLD:-}" ]; then
  old=$QIYUAN_BENCH_OLD
  echo "baseline: $old; building the bench against this tree ..." >&2
else
  # The baseline's sources stay in target/ under its commit, so a second run builds
  # nothing new (git archive gives every file the commit's time).
  tree="$root/target/bench-baseline/src-$(git rev-parse --short "$base")"
  rm -rf "$tree" && mkdir -p "$tree"
  git archive "$base" | tar -x -C "$tree"
  mkdir -p "$tree/benches"
  cp -r benches/proofs.rs benches/data benches/support "$tree/benches/"
  grep -q 'name = "proofs"' "$tree/Cargo.toml" ||
    printf '\n[[bench]]\nname = "proofs"\nharness = false\n' >>"$tree/Cargo.toml"
  echo "building the bench against $(git rev-parse --short "$base") and this tree ..." >&2
  old=$(cd "$tree" && CARGO_TARGET_DIR="$root/target/bench-baseline" bench_binary)
fi
new=$(bench_binary)
out=$(mktemp)
"$old" shogi chess --longest "${QIYUAN_BENCH_LONGEST:-5}" | sed 's/^/old /' >>"$out"
"$new" | sed 's/^/new /' >>"$out"
# The tree's chess mates once more on one thread (mates in 4 and longer use every core).
QIYUAN_MATE_THREADS=1 "$new" chess | sed 's/^/new-1-thread /' >>"$out"
python3 scripts/bench-proofs-cshogi.py "$QIYUAN_CORPUS/shogi/tanuki-tsume.jsonl" | sed 's/^/cshogi /' >>"$out"
python3 - "$out" <<'PY'
import json, sys
runs = {}
for line in open(sys.argv[1]):
    who, rest = line.split(' ', 1)
    r = json.loads(rest)
    runs[(who, r["set"].replace(" (cshogi)", ""))] = r
ms = lambda s: f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"
print("| set | items | build | proven | total | median | worst (item) | total / old | same answers |")
print("|---|---|---|---|---|---|---|---|---|")
for s in dict.fromkeys(k[1] for k in runs):
    old = runs.get(("old", s))
    for who in ("old", "new", "new-1-thread", "cshogi"):
        r = runs.get((who, s))
        if not r:
            continue
        ratio = f"{r['total_s'] / old['total_s']:.2f}" if old and who != "old" else ""
        same = ""
        if who.startswith("new") and old:
            same = "yes" if r["answers"] == old["answers"] else "**no**"
        print(f"| {s} | {r['items']} | {who} | {r['proven']} | {ms(r['total_s'])} | {ms(r['median_s'])} | {ms(r['worst_s'])} ({r['worst']}) | {ratio} | {same} |")
new, cs = runs.get(("new", "shogi/tanuki")), runs.get(("cshogi", "shogi/tanuki"))
if new and cs:
    print(f"\nshogi/tanuki, ours / cshogi: {new['total_s'] / cs['total_s']:.2f} (goal: at most 1.0); worst single problem {ms(new['worst_s'])} (goal: under 0.5 s)")
for who in ("new", "new-1-thread"):
    m5 = runs.get((who, "chess/mate-in-5"))
    if m5:
        print(f"chess mate in 5 ({who}), median {ms(m5['median_s'])} (goal: under 50 ms)")
PY
rm -f "$out"
