#!/usr/bin/env bash
# Runs every test. Installs what the tests need from Debian first, if it is missing:
# gnugo (the reference engine the Go rules are compared with, in /usr/games), and
# chromium with chromium-driver (tests/browser.rs drives headless Chromium through WebDriver);
# and python-chess and pyffish from PyPI (the chess and xiangqi references). The tests need nothing beside the repository:
# the corpus they read is in tests/data/corpus. The checks on Cho Chikun's books, which may not
# be redistributed, run from scripts/cho-checks.sh (.ci/run runs it after this).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -x /usr/games/gnugo ] || command -v gnugo >/dev/null || need+=(gnugo)
# stockfish and fairy-stockfish: the UCI and USI opponents tests/engines.rs plays (with gnugo).
[ -x /usr/games/stockfish ] || command -v stockfish >/dev/null || need+=(stockfish)
[ -x /usr/games/fairy-stockfish ] || command -v fairy-stockfish >/dev/null || need+=(fairy-stockfish)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing ${need[*]} ..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing: ${need[*]}; run: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
# python-chess, the reference tests/chess_engine.rs compares the chess layer with.
if ! python3 -c 'import chess' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check chess==1.11.2 \
    || { echo "could not install python-chess: run python3 -m pip install chess" >&2; exit 1; }
fi
# pyffish (Fairy-Stockfish's Python binding), the reference tests/xiangqi_reference.rs and
# tests/xiangqi_records.rs compare the xiangqi rules and records with.
if ! python3 -c 'import pyffish' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check pyffish==0.0.90 \
    || { echo "could not install pyffish: run python3 -m pip install pyffish==0.0.90" >&2; exit 1; }
fi
# tests/fuzz.rs: seconds of fuzzing in all, shared by the parsers (20 suits a debug build).
export QIYUAN_FUZZ_SECS=${QIYUAN_FUZZ_SECS:-20}
cargo test --locked "$@"
# Every benchmark still builds (cargo test builds the examples, not the benches).
cargo test --locked --benches --no-run
