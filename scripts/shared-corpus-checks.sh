#!/usr/bin/env bash
# The checks that read the whole of ../shared/corpus beyond what tests/data holds: every
# xiangqi record of the CCPD collection (674 files) read, replayed against pyffish and
# written back (tests/xiangqi_records.rs, ignored in a plain `cargo test`). Reads
# ../shared/corpus/xiangqi/ccpd (or $QIYUAN_CCPD); a missing folder fails.
# .ci/run runs this after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export QIYUAN_CCPD=${QIYUAN_CCPD:-$(cd .. && pwd)/shared/corpus/xiangqi/ccpd}
if [ ! -d "$QIYUAN_CCPD/games" ]; then
  echo "shared-corpus-checks: the CCPD collection is missing at $QIYUAN_CCPD" >&2
  exit 1
fi
cargo test --locked --test xiangqi_records -- --ignored "$@"
