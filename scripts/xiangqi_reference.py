#!/usr/bin/env python3
"""The xiangqi reference for tests/xiangqi_reference.rs and tests/xiangqi_records.rs: pyffish
(Fairy-Stockfish as a Python module, `python3 -m pip install pyffish==0.0.90`), an
implementation of the rules independent of ours.

One process answers a whole batch. Each input line is a game, `FEN<TAB>moves`, the moves in
our ICCS (files a-i, ranks 0-9 from Red's side), separated by spaces. For each game one JSON
object comes out, on one line:

  legal    for each position (the start, then after each move): pyffish's legal moves,
           in our ICCS, sorted
  check    for each position: whether the side to move is in check (the start from
           gives_check, the others from the `+`/`#` of pyffish's SAN of the move before)
  result   for each position: pyffish's game_result when there is no legal move
           (negative: the side to move loses), else null
  wxf      pyffish's WXF name of each move
  fen      pyffish's FEN of the last position
  illegal  the first move pyffish does not allow (the lists stop before it), else null

With --names-only, `legal`, `check` and `result` are left empty: pyffish only names the
moves (one call a game; a move it does not allow is then looked for position by position).

pyffish writes ranks 1-10 (`h3e3`): ours plus one. Its FEN is ours (`w` Red, `b` Black).
Every pyffish call sets up a position (some milliseconds), so the script makes one call a
position and a few a game. Exit status 3, with the install command, when pyffish is missing.
"""

import json
import re
import sys

try:
    import pyffish as sf
except ImportError:
    sys.stderr.write(
        "pyffish is missing: run `python3 -m pip install pyffish==0.0.90`\n")
    sys.exit(3)

VARIANT = "xiangqi"
SQUARE = re.compile(r"([a-i])(\d+)")


def to_sf(move):
    """Our ICCS (ranks 0-9) to pyffish's (ranks 1-10)."""
    return SQUARE.sub(lambda m: m.group(1) + str(int(m.group(2)) + 1), move)


def from_sf(move):
    """pyffish's move (ranks 1-10) to our ICCS (ranks 0-9)."""
    return SQUARE.sub(lambda m: m.group(1) + str(int(m.group(2)) - 1), move)


def names(line):
    """Only the moves' WXF names and the last FEN, if pyffish allows every move."""
    fen, _, text = line.rstrip("\n").partition("\t")
    theirs = [to_sf(m) for m in text.split()]
    try:
        wxf = sf.get_san_moves(VARIANT, fen, theirs, False, sf.NOTATION_XIANGQI_WXF)
    except ValueError:
        return None
    return {"legal": [], "check": [], "result": [], "wxf": wxf,
            "fen": sf.get_fen(VARIANT, fen, theirs), "illegal": None}


def game(line):
    fen, _, text = line.rstrip("\n").partition("\t")
    moves = text.split()
    theirs = [to_sf(m) for m in moves]
    out = {"legal": [], "check": [], "result": [], "wxf": [], "fen": None,
           "illegal": None}
    for i in range(len(moves) + 1):
        legal = sorted(from_sf(m) for m in sf.legal_moves(VARIANT, fen, theirs[:i]))
        out["legal"].append(legal)
        out["result"].append(
            None if legal else sf.game_result(VARIANT, fen, theirs[:i]))
        if i < len(moves) and moves[i] not in legal:
            out["illegal"] = moves[i]
            theirs = theirs[:i]
            break
    out["check"] = [bool(sf.gives_check(VARIANT, fen, []))]
    if theirs:
        san = sf.get_san_moves(VARIANT, fen, theirs, False, sf.NOTATION_SAN)
        out["check"] += [m.endswith(("+", "#")) for m in san]
        out["wxf"] = sf.get_san_moves(VARIANT, fen, theirs, False,
                                      sf.NOTATION_XIANGQI_WXF)
    out["fen"] = sf.get_fen(VARIANT, fen, theirs)
    return out


def main():
    names_only = "--names-only" in sys.argv[1:]
    for line in sys.stdin:
        if line.strip():
            said = (names(line) if names_only else None) or game(line)
            sys.stdout.write(json.dumps(said) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
