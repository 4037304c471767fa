#!/usr/bin/env bash
# Peak memory and time of `qiyuan convert` on hostile game records (issue 43), generated here:
# SGF, PGN, KIF and CSA of about 10 KB, 100 KB and 1 MB each, as long sequences of nodes or
# moves, deep nesting and long variations. Prints a Markdown table: the input's bytes, the
# peak RSS (/usr/bin/time's maximum resident set), its ratio to the input, the seconds, and
# how the run ended (converted, or the first words of the refusal; "killed" past the caps).
# Usage: scripts/bench-hostile-records.sh [qiyuan-binary]   (default target/release/qiyuan,
# built if missing; RUST_BACKTRACE is unset, as a backtrace costs 36 MB). Each run is capped at 4 GB of address space and 60 s, so that an old
# binary's blow-up does not take the machine. Goal: linear, at most 20x the input in memory
# above the process's own start (the "empty" row), and at most 1 s per MB.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
  bin=${CARGO_TARGET_DIR:-target}/release/qiyuan
  [ -x "$bin" ] || cargo build --release --bin qiyuan
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import sys, os
work = sys.argv[1]
sizes = {"10K": 10_000, "100K": 100_000, "1M": 1_000_000}
def fill(head, unit, tail, size):
    n = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * n + tail
def nested(size):
    n = size // 3
    return "(;" * n + ")" * n
def pgn_shuffle(size):
    moves, out, ply = ["Nf3", "Nf6", "Ng1", "Ng8"], ["[Result \"*\"]\n\n"], 0
    total = len(out[0])
    while total < size:
        t = (f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + moves[ply % 4] + " "
        out.append(t); total += len(t); ply += 1
    return "".join(out) + "*\n"
def pgn_games(size):
    game = pgn_shuffle(2_000)
    return game * max(1, size // len(game))
def pgn_long_games(size):
    game = pgn_shuffle(44_000)  # about 9,950 plies, just under the limit of 10,000
    return game * max(1, size // len(game))
def pgn_variations(size):
    moves, alt = ["Nf3", "Nf6", "Ng1", "Ng8"], ["Nc3", "Nc6", "Nh4", "Nh5"]
    out, ply, total = ["[Result \"*\"]\n\n"], 0, 0
    while total < size:
        num = f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}..."
        t = f"{num} {moves[ply % 4]} ({num} {alt[ply % 4]}) "
        out.append(t); total += len(t); ply += 1
    return "".join(out) + "*\n"
SHOGI = [("+5958OU", "５八玉(59)"), ("-5152OU", "５二玉(51)"), ("+5859OU", "５九玉(58)"), ("-5251OU", "５一玉(52)")]
def csa(size):
    out, total, ply = ["V2.2\nPI\n+\n"], 0, 0
    while total < size:
        t = SHOGI[ply % 4][0] + "\n"; out.append(t); total += len(t); ply += 1
    return "".join(out)
def kif(size):
    out, total, ply = ["手合割：平手\n手数----指手---------消費時間--\n"], 0, 0
    while total < size:
        t = f"{ply + 1:>4} {SHOGI[ply % 4][1]}\n"; out.append(t); total += len(t.encode()); ply += 1
    return "".join(out)
def kif_variations(size):
    # Eight plies of main line, then 変化 blocks from ply 8 again and again.
    head = "手合割：平手\n手数----指手---------消費時間--\n" + "".join(f"{p + 1:>4} {SHOGI[p % 4][1]}\n" for p in range(8))
    block = f"\n変化：8手\n   8 {SHOGI[3][1]}\n"
    return fill(head, block, "", size)
shapes = {
    "sgf-sequence": lambda s: fill("(;GM[1]SZ[19]", ";", ")", s),
    "sgf-pass-pairs": lambda s: fill("(;GM[1]SZ[19]", ";B[];W[]", ")", s),
    "sgf-nested": nested,
    "sgf-games": lambda s: fill("", "(;GM[1]SZ[19]" + ";B[];W[]" * 500 + ")\n", "", s),
    "sgf-long-games": lambda s: fill("", "(;GM[1]SZ[19]" + ";B[];W[]" * 4_999 + ")\n", "", s),
    "sgf-variations": lambda s: fill("(;GM[1]SZ[19]", "(;B[];W[](;B[])", ")", s),
    "pgn-shuffle": pgn_shuffle,
    "pgn-games": pgn_games,
    "pgn-long-games": pgn_long_games,
    "pgn-variations": pgn_variations,
    "kif-shuffle": kif,
    "kif-variations": kif_variations,
    "csa-shuffle": csa,
}
ext = {"sgf": "sgf", "pgn": "pgn", "kif": "kif", "csa": "csa"}
for shape, make in shapes.items():
    for label, size in sizes.items():
        text = make(size)
        # sgf-variations: each unit opens one more game tree; close them all.
        if shape == "sgf-variations":
            text += ")" * text.count("(;B[];W[](;B[])")
        with open(os.path.join(work, f"{shape}-{label}.{ext[shape[:3]]}"), "w") as f:
            f.write(text)
with open(os.path.join(work, "empty-0.sgf"), "w") as f:
    f.write("(;GM[1]SZ[19])")
PY

printf '| input | bytes | peak RSS (KB) | RSS / byte | seconds | outcome |\n'
printf '|---|---:|---:|---:|---:|---|\n'
for f in "$work"/empty-0.sgf "$work"/sgf-* "$work"/pgn-* "$work"/kif-* "$work"/csa-*; do
  name=$(basename "$f")
  out="$work/out.${name##*.}"
  [ "${name##*.}" = csa ] && out="$work/out.kif"
  bytes=$(stat -c %s "$f")
  set +e
  ( ulimit -v 4000000; unset RUST_BACKTRACE RUST_LIB_BACKTRACE; timeout 60 /usr/bin/time -f '%M %e' -o "$work/time" "$bin" convert "$f" "$out" ) \
    >/dev/null 2>"$work/err"
  code=$?
  set -e
  read -r rss secs < <(tail -1 "$work/time" 2>/dev/null || echo "? ?")
  case $code in
    0) outcome="converted" ;;
    1) outcome="refused: $(grep -v '^$' "$work/err" | head -1 | sed "s#^Error: ##; s#$work/##g; s/|/\\\\|/g" | cut -c1-70)" ;;
    124) outcome="killed after 60 s" ;;
    *) outcome="exit $code: $(grep -v '^$' "$work/err" | grep -m1 -E 'overflow|panicked|memory|alloc' | cut -c1-60)" ;;
  esac
  ratio=$(awk -v r="$rss" -v b="$bytes" 'BEGIN { if (r ~ /^[0-9]+$/) printf "%.0f", r * 1024 / b; else print "?" }')
  printf '| %s | %s | %s | %s | %s | %s |\n' "${name%.*}" "$bytes" "$rss" "$ratio" "$secs" "$outcome"
  rm -f "$out"
done
