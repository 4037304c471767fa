#!/usr/bin/env python3
"""What python-chess says about chess positions: the reference tests/chess_engine.rs
compares our chess layer (src/rules/chess) with.

Reads JSON lines from stdin, one game each:
    {"fen": "<start FEN>", "moves": ["e2e4", ...], "sample": [0, 3, ...], "probes": [[...], ...]}
`sample` lists the plies (0 = the start position) to report on; `probes[i]` lists move
texts to read, as SAN, at `sample[i]`. Writes one JSON line per sampled ply:
    {"ply": 3, "legal": [["e2e4", "e4"], ...], "end": "checkmate" | ... | null,
     "probes": ["e4f3" or null, ...]}
`legal` is every legal move, UCI and SAN, sorted by UCI. `end` is, in this order:
checkmate, stalemate, insufficient (material), threefold (the position occurs for the
third time since the start FEN) or fifty (100 half-moves without capture or pawn move).
Needs python-chess (`pip install chess`); scripts/test.sh installs it.
"""
import json
import sys

import chess


def end(board):
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient"
    if board.is_repetition(3):
        return "threefold"
    if board.halfmove_clock >= 100:
        return "fifty"
    return None


def read_san(board, text):
    try:
        return board.parse_san(text).uci()
    except ValueError:
        return None


def report(board, ply, probes):
    legal = sorted((m.uci(), board.san(m)) for m in board.legal_moves)
    return {
        "ply": ply,
        "legal": legal,
        "end": end(board),
        "probes": [read_san(board, t) for t in probes],
    }


def main():
    games = [json.loads(line) for line in sys.stdin if line.strip()]
    out = sys.stdout
    for game in games:
        board = chess.Board(game["fen"])
        wanted = dict(zip(game["sample"], game["probes"]))
        for ply in range(len(game["moves"]) + 1):
            if ply > 0:
                board.push_uci(game["moves"][ply - 1])
            if ply in wanted:
                out.write(json.dumps(report(board, ply, wanted[ply])) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
