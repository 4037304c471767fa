#!/usr/bin/env bash
# The checks that read Cho Chikun's Encyclopedia of Life and Death, which may not be
# redistributed and so is not in tests/data: the import of the 900 Elementary problems and the
# solver's agreement with the book (tests/go_import.rs, tests/go_life.rs, ignored in a plain
# `cargo test`). Reads ../shared/corpus (or $QIYUAN_CHO_CORPUS); a missing book fails.
# .ci/run runs this after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export QIYUAN_CHO_CORPUS=${QIYUAN_CHO_CORPUS:-$(cd .. && pwd)/shared/corpus}
if [ ! -f "$QIYUAN_CHO_CORPUS/go/cho-elementary.jsonl" ]; then
  echo "cho-checks: Cho Chikun's book is missing at $QIYUAN_CHO_CORPUS/go/cho-elementary.jsonl" >&2
  exit 1
fi
cargo test --locked --test go_import --test go_life -- --ignored "$@"
