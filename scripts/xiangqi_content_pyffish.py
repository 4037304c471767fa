#!/usr/bin/env python3
"""What Fairy-Stockfish (pyffish, from PyPI: `python3 -m pip install pyffish==0.0.90`)
says about xiangqi positions, for scripts/check-xiangqi-content.py: legal moves in our
ICCS points (ranks 0-9; pyffish counts 1-10), the rules pyffish's FEN check leaves out
(where each piece can ever stand, the facing kings), a small exhaustive mate search
(the side without a legal move loses, in check or not: 将死 and 困毙), and the answers
to the trainer's `select` questions (moves:h2, captures:h2, checks).
"""

import re
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit("check-xiangqi-content: FAIL: pyffish is missing; install it with "
             "`python3 -m pip install pyffish==0.0.90`")

V = "xiangqi"
START = sf.start_fen(V)
FILES = "abcdefghi"
POINT = re.compile(r"^[a-i][0-9]$")
MOVE = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")

# ---------------------------------------------------------------- points and moves

def to_ffish(mv):
    m = MOVE.match(mv)
    if not m:
        return None
    a, r1, b, r2 = m.groups()
    return f"{a}{int(r1) + 1}{b}{int(r2) + 1}"


def from_ffish(mv):
    m = re.match(r"^([a-i])(\d+)([a-i])(\d+)$", mv)
    a, r1, b, r2 = m.groups()
    return f"{a}{int(r1) - 1}{b}{int(r2) - 1}"


def board(fen):
    """{(file, rank): char} from a FEN, or raises ValueError."""
    rows = fen.split()[0].split("/")
    if len(rows) != 10:
        raise ValueError(f"{len(rows)} ranks, not 10")
    out = {}
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            elif c.lower() in "rnbakcp":
                if f > 8:
                    raise ValueError(f"rank {rank} is longer than 9 points")
                out[(f, rank)] = c
                f += 1
            else:
                raise ValueError(f"unknown piece letter {c!r}")
        if f != 9:
            raise ValueError(f"rank {rank} has {f} points, not 9")
    return out


def name(p):
    return f"{FILES[p[0]]}{p[1]}"


def parse_point(s):
    if not isinstance(s, str) or not POINT.match(s):
        return None
    return (FILES.index(s[0]), int(s[1]))


ELEPHANT_RED = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
ADVISOR_RED = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
MAX = {"r": 2, "n": 2, "b": 2, "a": 2, "k": 1, "c": 2, "p": 5}


def mirror(points):
    return {(f, 9 - r) for f, r in points}


def placement_problems(b):
    """What is impossible about a board: a list of reasons."""
    out = []
    for color, up in (("red", str.upper), ("black", str.lower)):
        for k, most in MAX.items():
            n = sum(1 for c in b.values() if c == up(k))
            if k == "k" and n != 1:
                out.append(f"{color} has {n} kings")
            elif n > most:
                out.append(f"{color} has {n} of {up(k)}, more than a set has")
    for p, c in b.items():
        red = c.isupper()
        k = c.lower()
        f, r = p
        if k == "k" and not (3 <= f <= 5 and (r <= 2 if red else r >= 7)):
            out.append(f"king {c} on {name(p)} is outside its palace")
        if k == "a" and p not in (ADVISOR_RED if red else mirror(ADVISOR_RED)):
            out.append(f"advisor {c} on {name(p)}: advisors only stand on the palace's 5 points")
        if k == "b" and p not in (ELEPHANT_RED if red else mirror(ELEPHANT_RED)):
            out.append(f"elephant {c} on {name(p)}: elephants only stand on their 7 points")
        if k == "p":
            own_rank = r if red else 9 - r
            if own_rank < 3 or (own_rank < 5 and f % 2 == 1):
                out.append(f"soldier {c} on {name(p)} can never get there")
    kings = [p for p, c in b.items() if c.lower() == "k"]
    if len(kings) == 2 and kings[0][0] == kings[1][0]:
        f = kings[0][0]
        lo, hi = sorted(r for _, r in kings)
        if not any((f, r) in b for r in range(lo + 1, hi)):
            out.append("the two kings face each other on an open file")
    return out


def legal(fen):
    return [from_ffish(m) for m in sf.legal_moves(V, fen, [])]


def after(fen, mv):
    return sf.get_fen(V, fen, [to_ffish(mv)])


def in_check(fen):
    return sf.gives_check(V, fen, [])


def side(fen):
    return fen.split()[1]


def wxf(fen, mv):
    return sf.get_san(V, fen, to_ffish(mv), False, sf.NOTATION_XIANGQI_WXF)


# ---------------------------------------------------------------- mate search

def lost(fen):
    """The side to move has no legal move: it loses (将死 or 困毙)."""
    return not sf.legal_moves(V, fen, [])


def checks_first(fen):
    """The legal moves, checking moves first: mates are found sooner that way."""
    moves = legal(fen)
    return sorted(moves, key=lambda m: not sf.gives_check(V, fen, [to_ffish(m)]))


def forces(fen, mv, n, memo):
    """Whether `mv` (attacker) wins within n attacker moves against every defence: the
    defender runs out of legal moves (in check or not) by then."""
    nxt = after(fen, mv)
    key = (nxt, n)
    if key in memo:
        return memo[key]
    replies = legal(nxt)
    if not replies:
        ok = True
    elif n == 1:
        ok = False
    else:
        ok = True
        for r in replies:
            pos = after(nxt, r)
            if not any(forces(pos, a, n - 1, memo) for a in checks_first(pos)):
                ok = False
                break
    memo[key] = ok
    return ok


def forces_after(fen, mv, n, memo):
    """Whether the attacker's `mv` from `fen` still wins within n moves."""
    return n >= 1 and forces(fen, mv, n, memo)


def mating_moves(fen, n, memo):
    """Every first move that wins within n (exhaustive: slow for n = 3)."""
    return [m for m in checks_first(fen) if forces(fen, m, n, memo)]


# ---------------------------------------------------------------- questions

def select_answer(fen, ask):
    """The engine's answer to a select question (sorted point names), or an error text."""
    moves = legal(fen)
    if ask == "checks":
        return sorted({m[2:] for m in moves if sf.gives_check(V, fen, [to_ffish(m)])})
    kind, _, at = ask.partition(":")
    p = parse_point(at)
    if kind not in ("moves", "captures") or p is None:
        return f"ask `{ask}` should be moves:h2, captures:h2 or checks"
    piece = board(fen).get(p)
    if piece is None:
        return f"ask `{ask}`: no piece on {at}"
    if piece.isupper() != (side(fen) == "w"):
        return f"ask `{ask}`: the piece on {at} is not the side to move's"
    own = [m for m in moves if m[:2] == at]
    if kind == "captures":
        own = [m for m in own if sf.is_capture(V, fen, [], to_ffish(m))]
    return sorted({m[2:] for m in own})


POINT_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])[a-i][0-9](?![A-Za-z0-9])")


def points_in(text):
    """The point names (e0, h2) a text mentions."""
    return set(POINT_IN_TEXT.findall(text or ""))
