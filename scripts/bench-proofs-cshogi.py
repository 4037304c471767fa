"""cshogi's df-pn on the tanuki tsume, asked what qiyuan is asked: after every checking
first move, does the defender's node (search_andnode) lose within the problem's length?
Prints one JSON line like benches/proofs.rs. Usage: bench-proofs-cshogi.py TANUKI_JSONL"""
import json
import statistics
import sys
import time

import cshogi

times, proven, firsts = [], 0, 0
worst = (0.0, "")
for line in open(sys.argv[1], encoding="utf-8"):
    t = json.loads(line)
    board = cshogi.Board(t["sfen"])
    dfpn = cshogi.DfPn(t["mate_length"] - 1)
    start = time.perf_counter()
    found = 0
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check():
            firsts += 1
            if dfpn.search_andnode(board):
                found += 1
        board.pop()
    took = time.perf_counter() - start
    times.append(took)
    worst = max(worst, (took, t["id"]))
    proven += found > 0
print(json.dumps({
    "set": "shogi/tanuki (cshogi)", "items": len(times), "proven": proven,
    "checking_firsts": firsts, "total_s": sum(times), "median_s": statistics.median(times),
    "worst_s": worst[0], "worst": worst[1],
}))
