#!/usr/bin/env python3
"""Checks the xiangqi lessons and practice sets against an independent engine.

Reads every ```xiangqi fence of lessons/xiangqi/*.md and every [[problem]] of
problems/xiangqi/*.toml, and checks them with Fairy-Stockfish's Python binding
(pyffish, from PyPI: `python3 -m pip install pyffish==0.0.90`), never with qiyuan's own
rules engine:

* every FEN: pyffish.validate_fen, plus what pyffish does not look at (10 ranks of 9
  points, one king each, no more pieces than a set has, every piece on a point it can
  ever reach: kings and advisors in their palace, elephants on their 7 points and on
  their own side of the river, soldiers never behind their first rank, the kings not
  facing each other, the side that has just moved not in check);
* every `play`, `solutions` and `wrong` line is played move by move with
  pyffish.legal_moves (our ICCS rank r is pyffish's rank r + 1: h2e2 is h3e3);
* `mate` goals: a mate in `mate_in` exists (exhaustive search, the side without a legal
  move loses, in check or not; for mate in 3 only the written first moves are proven,
  a full search would take too long), every written solution's first move and each of
  its later attacking moves forces it against every defence, its written line ends in
  checkmate (no legal move and in check), no `wrong` line starts with a mating move,
  and no shorter mate exists (a warning);
* `move`/`check` goals: some legal move does what the goal asks, and so does the first
  move of each solution and of the next step's `play`;
* `select` goals: the piece asked about is there and belongs to the side to move, the
  answer is not empty, and every point of it is named in the English explanation (or the
  step's `say`) so that the text tells the learner the same answer as the engine;
* marks name real points; `moves_of` names a piece;
* twin lessons (`NN-slug.en.md`, `NN-slug.zh.md`) have the same fences once the words
  are taken out; every lesson has a practice set whose `lesson` is its slug;
* the zh and en texts of each caption, step, hint, explanation and wrong line name the
  same points (e0, h2), so a translation cannot point at another place;
* zh text uses simplified piece names (no 帥將車馬砲傌俥).

Run from the repository root: `python3 scripts/check-xiangqi-content.py [-v]`.
Exits 1 with a message on any error, also when pyffish is missing.
"""

import glob
import os
import re
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit("check-xiangqi-content: needs Python 3.11 or newer (tomllib)")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xiangqi_content_pyffish import (  # noqa: E402  (needs the path above)
    MOVE, START, V, after, board, forces, forces_after, in_check, legal, lost, mating_moves,
    parse_point, placement_problems, points_in, select_answer, sf, side, to_ffish, wxf)

TRADITIONAL = set("帥將車馬砲傌俥進後")
WORDS = {"caption", "say", "hint", "done", "why"}

errors = []
warnings = []
counts = {"lessons": 0, "diagrams": 0, "task steps": 0, "diagrams with a task": 0,
          "steps": 0, "moves played": 0, "sets": 0, "problems": 0, "mate proofs": 0,
          "select answers": 0, "fens": 0}
verbose = "-v" in sys.argv


def err(where, text):
    errors.append(f"{where}: {text}")


def warn(where, text):
    warnings.append(f"{where}: {text}")


def check_fen(where, fen):
    """Checks a FEN; returns True when it may be used."""
    counts["fens"] += 1
    if not isinstance(fen, str):
        err(where, "fen is not a string")
        return False
    try:
        b = board(fen)
    except ValueError as e:
        err(where, f"bad FEN {fen!r}: {e}")
        return False
    parts = fen.split()
    if len(parts) < 2 or parts[1] not in ("w", "b"):
        err(where, f"FEN {fen!r}: the side to move should be w (red) or b (black)")
        return False
    if sf.validate_fen(fen, V) != sf.FEN_OK:
        err(where, f"pyffish refuses FEN {fen!r}")
        return False
    for why in placement_problems(b):
        err(where, f"FEN {fen!r}: {why}")
    # The side that just moved may not be in check: flip the side and ask.
    flipped = " ".join([parts[0], "b" if parts[1] == "w" else "w"] + parts[2:])
    if sf.gives_check(V, flipped, []):
        err(where, f"FEN {fen!r}: the side not to move is in check")
    return True


def play_line(where, fen, line):
    """Plays a line of ICCS moves; returns the positions after each move, or None."""
    out = []
    for mv in line.split():
        if not MOVE.match(mv):
            err(where, f"`{mv}` is not an ICCS move like h2e2 (in `{line}`)")
            return None
        if mv not in legal(fen):
            err(where, f"`{mv}` is not legal in {fen} (in `{line}`)")
            return None
        counts["moves played"] += 1
        if verbose:
            print(f"    {where}: {mv} = {wxf(fen, mv)}")
        fen = after(fen, mv)
        out.append(fen)
    return out


# ---------------------------------------------------------------- goals

def check_goal(where, fen, g, texts, next_play=None):
    """Checks a task or problem goal `g` (a dict) played from `fen`."""
    goal = g.get("goal")
    sols = g.get("solutions", [])
    for s in sols:
        play_line(f"{where} solution", fen, s)
    for w in g.get("wrong", []):
        line = w.get("line") if isinstance(w, dict) else None
        if not line:
            err(where, "a wrong entry needs `line`")
            continue
        if isinstance(w, dict) and "why" not in w:
            err(where, f"wrong line `{line}` needs `why`")
        play_line(f"{where} wrong", fen, line)
        first = line.split()[0]
        if any(s.split()[0] == first for s in sols):
            err(where, f"wrong line `{line}` starts like a solution")
    if goal == "mate":
        n = g.get("mate_in")
        if n not in (1, 2, 3):
            err(where, f"mate_in should be 1, 2 or 3, not {n!r}")
            return
        memo = {}
        counts["mate proofs"] += 1
        firsts = [x.split()[0] for x in sols if x.split()]
        if next_play:
            firsts.append(next_play.split()[0])
        if n <= 2 or not firsts:
            # Every mating first move, as the loader accepts any of them.
            mates = mating_moves(fen, n, memo)
        else:
            # Mate in 3: proving the written first moves is enough (and much faster).
            mates = [m for m in dict.fromkeys(firsts) if m in legal(fen)
                     and forces(fen, m, n, memo)]
        if not mates:
            err(where, f"no mate in {n} in {fen} (or no written move forces it)")
            return
        if n > 1 and mating_moves(fen, n - 1, {}):
            warn(where, f"there is already a mate in {n - 1}")
        if verbose:
            print(f"    {where}: mates in {n}: {' '.join(mates)}")
        for x in sols:
            mv = x.split()
            if mv and mv[0] not in mates:
                err(where, f"solution `{x}`: {mv[0]} does not force mate in {n}")
            if len(mv) != 2 * n - 1:
                err(where, f"solution `{x}` should have {2 * n - 1} moves for mate in {n}")
                continue
            line = play_line(where, fen, x)
            if line and not (lost(line[-1]) and in_check(line[-1])):
                err(where, f"solution `{x}` does not end in checkmate")
            # Each defence written in the line must be one the search allows, and the
            # attacker's later moves must still force mate.
            pos = fen
            for i, m in enumerate(mv[:-1]):
                pos = after(pos, m)
                if i % 2 == 1 and not forces_after(pos, mv[i + 1], n - (i + 1) // 2, memo):
                    err(where, f"solution `{x}`: {mv[i + 1]} does not keep the mate")
                    break
        for w in g.get("wrong", []):
            mv = w.get("line", "").split()
            if mv and n <= 2 and mv[0] in mates:
                err(where, f"wrong line `{w['line']}` starts with {mv[0]}, which mates in {n}")
        if next_play and next_play.split()[0] not in mates:
            err(where, f"the next step plays {next_play.split()[0]}, which does not mate in {n}")
    elif goal in ("move", "check"):
        moves = legal(fen)
        if goal == "move":
            fr, to = g.get("from"), g.get("to")
            if not fr and not to and not sols:
                err(where, "goal move needs from, to or solutions")
            fits = [m for m in moves if (not fr or m[:2] == fr) and (not to or m[2:] == to)]
        else:
            fits = [m for m in moves if sf.gives_check(V, fen, [to_ffish(m)])]
        if not fits:
            err(where, f"no legal move does what goal `{goal}` asks")
        for s in sols:
            if s.split()[0] not in fits:
                err(where, f"solution `{s}` does not do what goal `{goal}` asks")
        if next_play and next_play.split()[0] not in fits:
            err(where, f"the next step plays {next_play.split()[0]}, which does not do what "
                       f"goal `{goal}` asks")
    elif goal == "best":
        if not sols:
            err(where, "goal best needs solutions")
        if next_play and sols and next_play.split()[0] not in [s.split()[0] for s in sols]:
            err(where, f"the next step plays {next_play.split()[0]}, not a solution")
    elif goal == "select":
        ask = g.get("ask")
        if not isinstance(ask, str):
            err(where, "goal select needs ask")
            return
        ans = select_answer(fen, ask)
        counts["select answers"] += 1
        if isinstance(ans, str):
            err(where, ans)
            return
        if not ans:
            err(where, f"ask `{ask}` has an empty answer")
            return
        if verbose:
            print(f"    {where}: {ask} = {' '.join(ans)}")
        named = points_in(texts)
        missing = [a for a in ans if a not in named]
        if missing:
            err(where, f"ask `{ask}` answers {' '.join(ans)}; the English text never names "
                       f"{' '.join(missing)}")
    else:
        err(where, f"unknown goal {goal!r}")


def same_points(where, zh, en):
    """The zh and en texts of one thing should name the same points."""
    a, b = points_in(zh), points_in(en)
    if a != b:
        err(where, f"zh and en name different points: only zh {sorted(a - b)}, "
                   f"only en {sorted(b - a)}")


def check_marks(where, fen, spec):
    b = board(fen)
    for key in ("highlight", "circles", "crosses", "triangles", "squares"):
        for p in spec.get(key, []):
            if parse_point(p) is None:
                err(where, f"{key}: `{p}` is not a point like e0")
    for a in spec.get("arrows", []):
        if not MOVE.match(a):
            err(where, f"arrow `{a}` should be two points like h2e2")
    for label, p in spec.get("labels", {}).items():
        if parse_point(p) is None:
            err(where, f"label {label}: `{p}` is not a point")
    mo = spec.get("moves_of")
    if mo is not None:
        p = parse_point(mo)
        if p is None or p not in b:
            err(where, f"moves_of `{mo}`: no piece there")
        elif b[p].isupper() != (side(fen) == "w"):
            err(where, f"moves_of `{mo}`: that piece's side is not to move")


# ---------------------------------------------------------------- lessons

FENCE = re.compile(r"^```xiangqi id=([\w-]+)\n(.*?)^```", re.S | re.M)


def strip_words(x):
    if isinstance(x, dict):
        # Labels are words too (一 or 1): only the points they stand on must agree.
        return {k: sorted(v.values()) if k == "labels" else strip_words(v)
                for k, v in x.items() if k not in WORDS}
    if isinstance(x, list):
        return [strip_words(v) for v in x]
    return x


def check_lesson(path):
    counts["lessons"] += 1
    text = open(path, encoding="utf-8").read()
    m = re.match(r"^\+\+\+\n(.*?)\n\+\+\+\n", text, re.S)
    if not m:
        err(path, "no +++ front matter")
    else:
        try:
            front = tomllib.loads(m.group(1))
            for k in ("title", "summary", "topics"):
                if k not in front:
                    err(path, f"front matter has no {k}")
        except tomllib.TOMLDecodeError as e:
            err(path, f"front matter: {e}")
    if "```chess" in text or "```shogi" in text:
        err(path, "a chess or shogi fence in a xiangqi lesson")
    fences = []
    ids = set()
    for fm in FENCE.finditer(text):
        fid, body = fm.group(1), fm.group(2)
        where = f"{os.path.basename(path)}#{fid}"
        if fid in ids:
            err(where, "duplicate id")
        ids.add(fid)
        counts["diagrams"] += 1
        try:
            spec = tomllib.loads(body)
        except tomllib.TOMLDecodeError as e:
            err(where, f"TOML: {e}")
            continue
        fences.append((fid, strip_words(spec), spec))
        unknown = set(spec) - {"fen", "caption", "steps", "orientation", "highlight", "arrows",
                               "circles", "crosses", "triangles", "squares", "labels",
                               "moves_of"}
        if unknown:
            err(where, f"unknown keys {sorted(unknown)}")
        fen = spec.get("fen", START)
        if not check_fen(where, fen):
            continue
        check_marks(where, fen, spec)
        steps = spec.get("steps", [])
        had_task = False
        for i, st in enumerate(steps, 1):
            counts["steps"] += 1
            sw = f"{where} step {i}"
            unknown = set(st) - {"play", "say", "task", "highlight", "arrows", "circles",
                                 "crosses", "triangles", "squares", "labels", "moves_of"}
            if unknown:
                err(sw, f"unknown keys {sorted(unknown)}")
            if "play" in st:
                line = play_line(sw, fen, st["play"])
                if line is None:
                    break
                fen = line[-1]
            check_marks(sw, fen, st)
            if "moves_of" in st and ".en." in path and parse_point(st["moves_of"]) in board(fen):
                dots = [m[2:] for m in legal(fen) if m[:2] == st["moves_of"]]
                unnamed = sorted(set(dots) - points_in(st.get("say", "")))
                if unnamed:
                    warn(sw, f"moves_of {st['moves_of']} shows {' '.join(sorted(dots)) or 'no dots'}; "
                             f"the text does not name {' '.join(unnamed)}")
            if "task" in st:
                had_task = True
                counts["task steps"] += 1
                if "play" in st:
                    err(sw, "a step with a task should not also play")
                nxt = steps[i]["play"] if i < len(steps) and "play" in steps[i] else None
                t = st["task"]
                check_goal(sw, fen, t, st.get("say", "") + " " + t.get("done", "") + " "
                           + " ".join(s.get("say", "") for s in steps[i:i + 3]), nxt)
        if had_task:
            counts["diagrams with a task"] += 1
    if ".zh." in path:
        bad = TRADITIONAL & set(text)
        if bad:
            err(path, f"traditional characters {''.join(sorted(bad))}: write simplified")
    return fences


# ---------------------------------------------------------------- problem sets

def check_set(path, slugs):
    counts["sets"] += 1
    try:
        data = tomllib.loads(open(path, encoding="utf-8").read())
    except tomllib.TOMLDecodeError as e:
        err(path, f"TOML: {e}")
        return None
    s = data.get("set", {})
    for k in ("title", "summary"):
        if set(s.get(k, {})) != {"zh", "en"}:
            err(path, f"[set] {k} needs zh and en")
    lesson = s.get("lesson")
    if lesson not in slugs:
        err(path, f"lesson `{lesson}` is not a xiangqi lesson slug")
    if not isinstance(s.get("order"), int):
        err(path, "[set] needs an integer order")
    ids = set()
    for p in data.get("problem", []):
        counts["problems"] += 1
        where = f"{os.path.basename(path)}#{p.get('id')}"
        if p.get("id") in ids or not p.get("id"):
            err(where, "missing or duplicate id")
        ids.add(p.get("id"))
        for k in ("prompt", "hint", "explanation"):
            if set(p.get(k, {})) != {"zh", "en"}:
                err(where, f"{k} needs zh and en")
        for k in ("prompt", "hint", "explanation"):
            t = p.get(k, {})
            same_points(f"{where} {k}", t.get("zh"), t.get("en"))
        for w in p.get("wrong", []):
            if set(w.get("why", {})) != {"zh", "en"}:
                err(where, "wrong why needs zh and en")
            same_points(f"{where} wrong {w.get('line')}", w.get("why", {}).get("zh"),
                        w.get("why", {}).get("en"))
        zh = " ".join(str(p.get(k, {}).get("zh", "")) for k in ("prompt", "hint", "explanation"))
        bad = TRADITIONAL & set(zh)
        if bad:
            err(where, f"traditional characters {''.join(sorted(bad))}")
        if p.get("difficulty") not in (1, 2, 3, 4, 5):
            err(where, "difficulty should be 1 to 5")
        fen = p.get("fen")
        if not check_fen(where, fen):
            continue
        check_marks(where, fen, p)
        g = dict(p)
        g["wrong"] = [{"line": w.get("line"), "why": w.get("why")} for w in p.get("wrong", [])]
        en = " ".join(str(p.get(k, {}).get("en", "")) for k in ("explanation",))
        check_goal(where, fen, g, en)
    return lesson


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    lessons = sorted(glob.glob("lessons/xiangqi/*.md"))
    sets = sorted(glob.glob("problems/xiangqi/*.toml"))
    if not lessons:
        sys.exit("check-xiangqi-content: FAIL: no lessons/xiangqi/*.md")
    slugs = {}
    fences = {}
    for path in lessons:
        m = re.match(r"^(\d\d)-([\w-]+)\.(en|zh)\.md$", os.path.basename(path))
        if not m:
            err(path, "name should be NN-slug.en.md or NN-slug.zh.md")
            continue
        slugs[m.group(2)] = m.group(1)
        fences[(m.group(2), m.group(3))] = check_lesson(path)
    for slug in slugs:
        en, zh = fences.get((slug, "en")), fences.get((slug, "zh"))
        if en is None or zh is None:
            err(slug, "needs both an .en.md and a .zh.md lesson")
        elif [f[:2] for f in en] != [f[:2] for f in zh]:
            for (a, x, _), (b, y, _) in zip(en, zh):
                if (a, x) != (b, y):
                    err(slug, f"twins differ at fence en `{a}` / zh `{b}` (FEN, moves or marks)")
                    break
            else:
                err(slug, f"twins have {len(en)} (en) and {len(zh)} (zh) diagrams")
        else:
            for (fid, _, e), (_, _, z) in zip(en, zh):
                same_points(f"{slug}#{fid} caption", z.get("caption"), e.get("caption"))
                for i, (se, sz) in enumerate(zip(e.get("steps", []), z.get("steps", [])), 1):
                    same_points(f"{slug}#{fid} step {i} say", sz.get("say"), se.get("say"))
                    te, tz = se.get("task", {}), sz.get("task", {})
                    for k in ("hint", "done"):
                        same_points(f"{slug}#{fid} step {i} task {k}", tz.get(k), te.get(k))
    covered = set()
    for path in sets:
        covered.add(check_set(path, slugs))
    for slug in slugs:
        if slug not in covered:
            err(slug, "no practice set has this lesson")
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    if errors:
        print(f"check-xiangqi-content: FAIL, {len(errors)} errors")
        sys.exit(1)
    print("check-xiangqi-content: OK")


if __name__ == "__main__":
    main()
