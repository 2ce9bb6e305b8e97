"""The proof-size counters of the counting build (``analyzer.solvers.dd.proof``).

The counting build is a compile switch read at import (``ANALYZER_DD_STATS=1``), so the endings are
solved in a child process.  What any proof tree of an alpha-beta search must satisfy, checked on
random 4-card endings of every goal: the root is one node; every counted node was entered (per depth
no more proof nodes than entered ones); each searched proof node has at least one proof child and at
most 13 (a hand's cards); and where the search tried a second move at a node that then cut off, the
proof is smaller than the search.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json
import numpy as np
from analyzer.solvers.dd import api
from analyzer.solvers.dd import layout as kernels
from analyzer.solvers.dd.proof import proof_counts

assert kernels.STATS
rng = np.random.default_rng(SEED)
out = []
for i in range(COUNT):
    cards = rng.permutation(52)[:16]
    hands = [sum(1 << int(c) for c in cards[4 * s:4 * s + 4]) for s in range(4)]
    trump = int(rng.integers(5))
    leader = int(rng.integers(4))
    team = int(rng.choice([1, 2, 4, 8, 5, 10, 3, 6]))
    goal, k = [("ge", 2), ("le", 0), ("eq", 1), ("ge", 3), ("le", 1)][i % 5]
    mem = api._work()
    stats = mem[kernels.M_STATS:kernels.M_STATS + kernels.STATS_KINDS * kernels.MAX_DEPTH]
    stats[:] = 0
    answer = api.solve(np.array(hands, dtype=np.int64), trump, leader, team, goal, k)
    counts = stats.reshape(kernels.STATS_KINDS, kernels.MAX_DEPTH)
    out.append({"answer": bool(answer), "nodes": counts[kernels.S_NODES].tolist(),
                "proof": proof_counts(mem).tolist()})
print(json.dumps(out))
"""


def _solve_counted(seed, count):
    env = dict(os.environ, ANALYZER_DD_STATS="1", PYTHONPATH=str(ROOT))
    code = CHILD.replace("SEED", str(seed)).replace("COUNT", str(count))
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_proof_is_a_subtree_of_the_search():
    from analyzer.solvers.dd.proof import P_CUT, P_LATE, P_SEARCHED, P_TABLE

    cases = _solve_counted(seed=20261207, count=300)
    smaller = 0
    for case in cases:
        nodes = case["nodes"]
        proof = case["proof"]
        size = [proof[P_SEARCHED][d] + proof[P_TABLE][d] + proof[P_CUT][d] for d in range(len(nodes))]
        assert size[0] == 1
        assert all(size[d] <= nodes[d] for d in range(len(nodes)))
        assert all(proof[P_LATE][d] <= proof[P_SEARCHED][d] for d in range(len(nodes)))
        for d in range(len(nodes) - 1):
            assert proof[P_SEARCHED][d] <= size[d + 1] <= 13 * proof[P_SEARCHED][d]
        smaller += sum(size) < sum(nodes)
        if sum(proof[P_LATE]) > 0:
            assert sum(size) < sum(nodes)
    # The search wastes nodes somewhere on these endings: a proof equal to the search everywhere would
    # mean the counters add every move's subtree.
    assert smaller > 0
