#!/usr/bin/env python3
"""Checks the xiangqi lessons and practice sets against an independent engine (pyffish).

Reads every ```xiangqi fence in lessons/xiangqi/*.md and every problem in problems/xiangqi/*.toml,
and checks with pyffish (Fairy-Stockfish, `python3 -m pip install pyffish==0.0.90`):

- every FEN is valid xiangqi;
- every `play`, `solutions` and `line` move is legal where it is played;
- `mate` goals: each solution's first move forces checkmate within `mate_in` moves against every
  defence (exhaustive search, N <= 3), there is no quicker mate, and each solution line that is
  spelled out in full ends in checkmate; `wrong` lines do not start with a winning move;
- `move`, `check`, `best` and `select` goals have at least one legal answer, and a `play` step
  right after a task plays one of the task's answers;
- marks name real points (files a-i, ranks 0-9), `moves_of` names a piece;
- zh and en twin lessons have the same diagrams (ids, FENs, moves) in the same order;
- every set names an existing lesson, problem ids are unique, texts exist in zh and en,
  difficulty is 1-5 and mate sets are sorted by difficulty.

Our points are ICCS (ranks 0-9 from red's side); pyffish uses ranks 1-10, so h2e2 is h3e3 there.
Checkmate here means: the side to move is in check and has no legal move. (A side with no legal
move loses in xiangqi even when not in check -- 困毙 -- but a `mate` goal asks for real mate.)

Usage: python3 scripts/check-xiangqi-content.py [--quick]   (--quick skips mate searches)
Exit status 0 when clean, 1 when any problem is found, 2 when pyffish is missing.
"""
import glob
import os
import re
import sys
import tomllib

try:
    import pyffish as sf
except ImportError:
    print("FAIL: pyffish is missing: python3 -m pip install pyffish==0.0.90", file=sys.stderr)
    sys.exit(2)

V = "xiangqi"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POINT = re.compile(r"^[a-i][0-9]$")
MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
TEXT_FIELDS = ("hint", "done", "explanation", "prompt", "why", "title", "summary")

errors = []
stats = {"diagrams": 0, "steps": 0, "tasks": 0, "problems": 0, "moves": 0, "mate_proofs": 0}


def err(where, msg):
    errors.append(f"{where}: {msg}")


# ---------- ICCS <-> pyffish ----------

def to_sf(move):
    """h2e2 -> h3e3"""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def from_sf(move):
    """h3e3 -> h2e2 ; a10a9 -> a9a8"""
    m = re.match(r"^([a-i])(\d+)([a-i])(\d+)$", move)
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


_legal_cache = {}


def key(fen):
    return " ".join(fen.split()[:2])


def legal(fen):
    k = key(fen)
    if k not in _legal_cache:
        _legal_cache[k] = [from_sf(m) for m in sf.legal_moves(V, fen, [])]
    return _legal_cache[k]


_after_cache = {}


def after(fen, move):
    k = (key(fen), move)
    if k not in _after_cache:
        _after_cache[k] = sf.get_fen(V, fen, [to_sf(move)])
    return _after_cache[k]


def in_check(fen):
    return bool(sf.gives_check(V, fen, []))


def is_mated(fen):
    return not legal(fen) and in_check(fen)


def piece_at(fen, point):
    rows = fen.split()[0].split("/")
    file, rank = ord(point[0]) - ord("a"), int(point[1])
    row = rows[9 - rank]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
    return None


def side(fen):
    return fen.split()[1]


def own(fen, piece):
    return piece is not None and (piece.isupper() == (side(fen) == "w"))


# ---------- mate search (exhaustive, strict: only real checkmate counts) ----------

_mate_cache = {}


def wins_within(fen, n):
    """Side to move can force checkmate within n of its own moves."""
    if n <= 0:
        return False
    k = (key(fen), n)
    if k in _mate_cache:
        return _mate_cache[k]
    result = any(defender_lost(after(fen, m), n - 1) for m in legal(fen))
    _mate_cache[k] = result
    return result


def defender_lost(fen, n):
    """Side to move (the defender) is checkmated now, or every reply allows mate within n."""
    replies = legal(fen)
    if not replies:
        return in_check(fen)
    if n <= 0:
        return False
    return all(wins_within(after(fen, r), n) for r in replies)


def mating_moves(fen, n):
    return [m for m in legal(fen) if defender_lost(after(fen, m), n - 1)]


# ---------- playing lines ----------

def play_line(where, fen, line):
    """Plays a space-separated ICCS line; returns the final FEN or None after reporting."""
    for mv in line.split():
        if not MOVE.match(mv):
            err(where, f"'{mv}' is not an ICCS move like h2e2")
            return None
        if mv not in legal(fen):
            err(where, f"move {mv} is illegal in {fen}")
            return None
        fen = after(fen, mv)
        stats["moves"] += 1
    return fen


def check_fen(where, fen):
    if not isinstance(fen, str) or sf.validate_fen(fen, V) != 1:
        err(where, f"invalid xiangqi FEN {fen!r}")
        return False
    if kings_face(fen):
        err(where, f"the two Kings face each other on an open file in {fen}")
        return False
    other = fen.split()
    other[1] = "b" if other[1] == "w" else "w"
    if sf.gives_check(V, " ".join(other), []):
        err(where, f"the side that just moved is in check in {fen}")
        return False
    if not legal(fen):
        err(where, f"the side to move has no legal move in {fen}: the game is already over")
        return False
    return True


def kings_face(fen):
    """True when the red and black Kings stand on one file with nothing between them."""
    where = {}
    for f in "abcdefghi":
        for r in range(10):
            p = piece_at(fen, f"{f}{r}")
            if p in ("K", "k"):
                where[p] = (f, r)
    if len(where) < 2 or where["K"][0] != where["k"][0]:
        return False
    f, lo, hi = where["K"][0], min(where["K"][1], where["k"][1]), max(where["K"][1], where["k"][1])
    return all(piece_at(fen, f"{f}{r}") is None for r in range(lo + 1, hi))


def check_bilingual(where, table, name, langs):
    value = table.get(name)
    if value is None:
        return
    if langs:
        if not isinstance(value, dict) or any(not value.get(l) for l in ("zh", "en")):
            err(where, f"'{name}' needs both zh and en")


def select_answer(fen, ask):
    """The set of points a select question expects, or None when the question is malformed."""
    moves = legal(fen)
    if ask == "checks":
        return sorted({m[2:] for m in moves if sf.gives_check(V, fen, [to_sf(m)])})
    kind, _, point = ask.partition(":")
    if kind not in ("moves", "captures") or not POINT.match(point):
        return None
    if not own(fen, piece_at(fen, point)):
        return None
    targets = [m[2:] for m in moves if m[:2] == point]
    if kind == "captures":
        targets = [t for t in targets if piece_at(fen, t) is not None]
    return sorted(set(targets))


def check_goal(where, fen, goal, spec, search, first_move_shown=None):
    """Checks a task or problem goal in position `fen`. Returns the set of accepted first moves
    (None when any legal move could be meant)."""
    stats["tasks"] += 1
    moves = legal(fen)
    accepted = None
    if goal == "mate":
        n = spec.get("mate_in")
        if n not in (1, 2, 3):
            err(where, f"mate_in must be 1-3, not {n!r}")
            return set()
        if search:
            stats["mate_proofs"] += 1
            accepted = set(mating_moves(fen, n))
            if not accepted:
                err(where, f"no move forces mate in {n}")
            elif n > 1 and wins_within(fen, n - 1):
                err(where, f"there is a quicker mate than {n}: {mating_moves(fen, n - 1)}")
    elif goal == "move":
        accepted = {m for m in moves
                    if m[:2] == spec.get("from", m[:2]) and m[2:] == spec.get("to", m[2:])}
        if "solutions" in spec:
            accepted = {s.split()[0] for s in spec["solutions"]}
        if not accepted:
            err(where, "no legal move matches from/to")
    elif goal == "check":
        accepted = {m for m in moves if sf.gives_check(V, fen, [to_sf(m)])}
        if not accepted:
            err(where, "no move gives check")
    elif goal == "best":
        sols = spec.get("solutions") or []
        if not sols:
            err(where, "best needs solutions")
        accepted = {s.split()[0] for s in sols}
    elif goal == "select":
        ans = select_answer(fen, spec.get("ask", ""))
        if ans is None:
            err(where, f"bad ask {spec.get('ask')!r} (moves:/captures: need a piece of the side to move)")
        elif not ans:
            err(where, f"ask {spec.get('ask')!r} has no answer")
    else:
        err(where, f"unknown goal {goal!r}")
    for sol in spec.get("solutions", []) or []:
        end = play_line(f"{where} solution '{sol}'", fen, sol)
        if end is None:
            continue
        first = sol.split()[0]
        if goal == "mate" and search and accepted is not None and first not in accepted:
            err(where, f"solution {sol} does not force mate in {spec.get('mate_in')}")
        if goal == "mate" and len(sol.split()) == 2 * spec.get("mate_in", 0) - 1 and not is_mated(end):
            err(where, f"solution line {sol} does not end in checkmate")
    for w in spec.get("wrong", []) or []:
        line = w.get("line", "")
        if play_line(f"{where} wrong '{line}'", fen, line) is None:
            continue
        if goal == "mate" and accepted and line.split()[0] in accepted:
            err(where, f"wrong line {line} actually starts with a mating move")
        if goal in ("best", "move") and accepted and line.split()[0] in accepted:
            err(where, f"wrong line {line} starts with an accepted move")
    if first_move_shown and accepted is not None and first_move_shown not in accepted:
        err(where, f"the step after the task plays {first_move_shown}, which the task does not accept")
    return accepted


# ---------- lessons ----------

FENCE = re.compile(r"^```xiangqi id=(\S+)\s*\n(.*?)^```\s*$", re.S | re.M)


def check_marks(where, fen, step):
    for name in ("highlight", "circles", "crosses", "triangles", "squares"):
        for p in step.get(name, []) or []:
            if not POINT.match(p):
                err(where, f"{name}: '{p}' is not a point a0-i9")
    for a in step.get("arrows", []) or []:
        if not MOVE.match(a):
            err(where, f"arrow '{a}' is not like h2e2")
    for label, p in (step.get("labels") or {}).items():
        if not POINT.match(p):
            err(where, f"label {label}: '{p}' is not a point")
    if "moves_of" in step:
        p = step["moves_of"]
        if not POINT.match(p) or piece_at(fen, p) is None:
            err(where, f"moves_of '{p}' names no piece")


def check_repetition(where, did, fen, plays):
    """Diagrams named *perpetual-check* must end in a repetition that the checking side loses
    (Fairy-Stockfish: perpetual check loses); *repetition-draw* ones in a drawn repetition."""
    if "perpetual-check" not in did and "repetition-draw" not in did:
        return
    moves = [to_sf(m) for p in plays for m in p.split()]
    ended, result = sf.is_optional_game_end(V, fen, moves)
    if "perpetual-check" in did and not (ended and result > 0):
        err(where, f"the line should end in a perpetual check that the checker loses; pyffish: {ended}, {result}")
    if "repetition-draw" in did and not (ended and result == 0):
        err(where, f"the line should end in a drawn repetition; pyffish: {ended}, {result}")
    stats["repetitions"] = stats.get("repetitions", 0) + 1


def check_lesson(path, search):
    text = open(path, encoding="utf-8").read()
    name = os.path.basename(path)
    if not text.startswith("+++"):
        err(name, "no +++ front matter")
    else:
        front = tomllib.loads(text.split("+++")[1])
        for f in ("title", "summary", "topics"):
            if f not in front:
                err(name, f"front matter lacks {f}")
    shape = []
    ids = set()
    for m in FENCE.finditer(text):
        did, body = m.group(1), m.group(2)
        where = f"{name}#{did}"
        stats["diagrams"] += 1
        if did in ids:
            err(where, "duplicate diagram id")
        ids.add(did)
        try:
            d = tomllib.loads(body)
        except tomllib.TOMLDecodeError as e:
            err(where, f"TOML: {e}")
            continue
        fen = d.get("fen", START)
        if not check_fen(where, fen):
            continue
        if "caption" not in d:
            err(where, "no caption")
        steps = d.get("steps", [])
        plays = []
        pos = fen
        for i, step in enumerate(steps):
            stats["steps"] += 1
            sw = f"{where} step {i + 1}"
            if "say" not in step:
                err(sw, "no say")
            if "task" in step:
                task = step["task"]
                nxt = steps[i + 1].get("play", "").split() if i + 1 < len(steps) else []
                check_goal(sw, pos, task.get("goal"), task, search, nxt[0] if nxt else None)
            if "play" in step:
                plays.append(step["play"])
                new = play_line(sw, pos, step["play"])
                if new is None:
                    break
                pos = new
            check_marks(sw, pos, step)
        check_repetition(where, did, fen, plays)
        if "trapped" in did and (legal(pos) or in_check(pos)):
            err(where, "a *trapped* diagram must end with the side to move not in check and without a legal move (困毙)")
        shape.append((did, fen, tuple(plays), tuple(sorted(
            (i, s["task"].get("goal")) for i, s in enumerate(steps) if "task" in s))))
    if not FENCE.search(text):
        err(name, "no xiangqi diagram")
    return shape


# ---------- problem sets ----------

def check_set(path, lesson_slugs, search):
    name = os.path.basename(path)
    try:
        data = tomllib.load(open(path, "rb"))
    except tomllib.TOMLDecodeError as e:
        err(name, f"TOML: {e}")
        return 0
    s = data.get("set", {})
    for f in ("title", "summary"):
        check_bilingual(name, s, f, True)
        if f not in s:
            err(name, f"[set] lacks {f}")
    if s.get("lesson") not in lesson_slugs:
        err(name, f"lesson {s.get('lesson')!r} is not a lesson slug")
    if not isinstance(s.get("order"), int):
        err(name, "[set] order must be an integer")
    problems = data.get("problem", [])
    seen = set()
    diffs = []
    for p in problems:
        stats["problems"] += 1
        where = f"{name} problem {p.get('id')}"
        if p.get("id") in seen:
            err(where, "duplicate id")
        seen.add(p.get("id"))
        for f in ("prompt", "hint", "explanation"):
            if f not in p:
                err(where, f"lacks {f}")
            check_bilingual(where, p, f, True)
        for w in p.get("wrong", []) or []:
            check_bilingual(where, w, "why", True)
        d = p.get("difficulty")
        if d not in (1, 2, 3, 4, 5):
            err(where, f"difficulty must be 1-5, not {d!r}")
        diffs.append(d or 0)
        fen = p.get("fen")
        if not check_fen(where, fen):
            continue
        check_goal(where, fen, p.get("goal"), p, search)
        check_marks(where, fen, p)
    if "mate" in name and diffs != sorted(diffs):
        err(name, f"problems are not sorted by difficulty: {diffs}")
    return len(problems)


def main():
    search = "--quick" not in sys.argv
    lessons = sorted(glob.glob(os.path.join(ROOT, "lessons/xiangqi/*.md")))
    sets = sorted(glob.glob(os.path.join(ROOT, "problems/xiangqi/*.toml")))
    if not lessons or not sets:
        print("FAIL: no xiangqi lessons or problem sets found", file=sys.stderr)
        sys.exit(1)
    shapes = {}
    slugs = set()
    for path in lessons:
        base = os.path.basename(path)
        m = re.match(r"^(\d\d)-([a-z0-9-]+)\.(en|zh)\.md$", base)
        if not m:
            err(base, "name must be NN-slug.en.md or NN-slug.zh.md")
            continue
        slugs.add(m.group(2))
        shapes[(m.group(1), m.group(2), m.group(3))] = check_lesson(path, search)
    for (nn, slug, lang), shape in shapes.items():
        if lang == "en":
            twin = shapes.get((nn, slug, "zh"))
            if twin is None:
                err(f"{nn}-{slug}", "en lesson has no zh twin")
            elif twin != shape:
                for a, b in zip(shape, twin):
                    if a != b:
                        err(f"{nn}-{slug}", f"twins differ: en {a} / zh {b}")
                        break
                else:
                    err(f"{nn}-{slug}", f"twins have {len(shape)} (en) and {len(twin)} (zh) diagrams")
        elif (nn, slug, "en") not in shapes:
            err(f"{nn}-{slug}", "zh lesson has no en twin")
    covered = set()
    counts = {}
    for path in sets:
        counts[os.path.basename(path)] = check_set(path, slugs, search)
        try:
            covered.add(tomllib.load(open(path, "rb")).get("set", {}).get("lesson"))
        except tomllib.TOMLDecodeError:
            pass
    for slug in sorted(slugs - covered):
        err(slug, "lesson has no practice set")
    for e in errors:
        print("ERROR", e)
    print(f"lessons: {len(lessons)} files; diagrams {stats['diagrams']}, steps {stats['steps']}; "
          f"sets: {len(sets)}, problems {stats['problems']} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); tasks+goals checked "
          f"{stats['tasks']}, mate proofs {stats['mate_proofs']}, moves played {stats['moves']}, "
          f"repetitions proved {stats.get('repetitions', 0)}")
    print(f"{'FAIL' if errors else 'OK'}: {len(errors)} problems found"
          f"{'' if search else ' (quick: mate searches skipped)'}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
