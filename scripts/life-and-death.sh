#!/usr/bin/env bash
# Proves the 900 Cho Chikun Elementary problems of the corpus with the life-and-death solver
# (release build) and compares with the book's first moves and with GNU Go's owl reading.
# Options go to the example: --limit N, --every N (every N-th problem), --ms N (time per
# question), --nodes N, --book-first (the book's first moves searched first), --threads N
# (threads per proof attempt; 2 for this machine's two cores), --verify-ms N and
# --verify-nodes N (the whole corner's second opinion on a refuted book move; ten times the
# budget by default); --file cho-intermediate-advanced.jsonl --volume Intermediate (or Advanced):
# the development half of the next two volumes in place of Elementary; --corner: the whole corner
# as the region from the start (the framed problem); --gnugo is on.
set -euo pipefail
cd "$(dirname "$0")/.."
export QIYUAN_CORPUS=${QIYUAN_CORPUS:-$(cd .. && pwd)/shared/corpus}
cargo run --release --locked --example cho_life_and_death -- --gnugo "$@"
