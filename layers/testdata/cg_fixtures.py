#!/usr/bin/env python3
"""Fixtures for layers.CG from POT's conditional gradient (an independent implementation).

Writes testdata/cg_pot.json: random graph pairs (8-60 nodes; Erdos-Renyi, stochastic block
model, weighted; undirected, as POT 0.8's gradient assumes symmetric structure matrices), some
with node features (fused GW), each with POT's objective and running time. Edges are stored as
[i, j, w] lists to keep the file small. Run from layers/ with POT 0.8.2 installed
(apt-get install python3-pot):

    /usr/bin/python3 testdata/cg_fixtures.py

With --bench GWF (the path of a gwf binary) it instead times POT's CG and gwf's on the same
pairs for N = 20...500 (the README's speed table).
"""
import json
import sys
import time

import numpy as np
import ot


def graph(rng, kind, n):
    if kind == "er":
        a = (rng.random((n, n)) < min(1.0, 4.0 / n + 0.05)).astype(float)
    elif kind == "sbm":
        blocks = rng.integers(0, 3, n)
        same = blocks[:, None] == blocks[None, :]
        a = (rng.random((n, n)) < np.where(same, 0.5, 0.05)).astype(float)
    else:  # weighted
        a = (rng.random((n, n)) < 0.2).astype(float) * np.round(rng.uniform(0.1, 3.0, (n, n)), 3)
    a = np.triu(a, 1)
    return a + a.T


def edges(a):
    n = a.shape[0]
    return [[i, j, float(a[i, j])] for i in range(n) for j in range(i + 1, n) if a[i, j] != 0]


def solve(c1, c2, f1, f2, alpha):
    p = np.full(c1.shape[0], 1.0 / c1.shape[0])
    q = np.full(c2.shape[0], 1.0 / c2.shape[0])
    start, cpu = time.perf_counter(), time.process_time()
    if f1 is None:
        t, log = ot.gromov.gromov_wasserstein(c1, c2, p, q, "square_loss", log=True)
        obj = log["gw_dist"]
    else:
        m = ot.dist(f1, f2)  # squared Euclidean
        t, log = ot.gromov.fused_gromov_wasserstein(m, c1, c2, p, q, "square_loss", alpha=alpha, log=True)
        obj = log["fgw_dist"]
    solve.cpu = time.process_time() - cpu
    return t, float(obj), time.perf_counter() - start


def fixtures():
    rng = np.random.default_rng(16)
    pairs = []
    kinds = ["er", "sbm", "weighted"]
    for k in range(24):
        n1, n2 = int(rng.integers(8, 61)), int(rng.integers(8, 61))
        kind = kinds[k % 3]
        c1, c2 = graph(rng, kind, n1), graph(rng, kind, n2)
        f1 = f2 = None
        alpha = 1.0
        if k >= 20:  # fused GW: 2-dimensional features, POT's alpha = 0.5
            f1, f2 = rng.normal(size=(n1, 2)).round(3), rng.normal(size=(n2, 2)).round(3)
            alpha = 0.5
        t, obj, secs = solve(c1, c2, f1, f2, alpha)
        pair = {"name": f"{k}_{kind}_{n1}x{n2}", "n1": n1, "n2": n2, "edges1": edges(c1), "edges2": edges(c2),
                "alpha": alpha, "objective": obj, "seconds": secs}
        if f1 is not None:
            pair["f1"], pair["f2"] = f1.tolist(), f2.tolist()
        pairs.append(pair)
    # A graph against itself: POT's value is the bar for ours.
    c = graph(rng, "sbm", 30)
    t, obj, secs = solve(c, c, None, None, 1.0)
    pairs.append({"name": "self_sbm_30", "n1": 30, "n2": 30, "edges1": edges(c), "edges2": edges(c),
                  "alpha": 1.0, "objective": obj, "seconds": secs})
    meta = {"generator": "layers/testdata/cg_fixtures.py", "pot": ot.__version__,
            "note": "objective: POT's gw_dist, or fgw_dist = (1-alpha)<M,T> + alpha*GW with M squared Euclidean"}
    with open("testdata/cg_pot.json", "w") as f:
        json.dump({"meta": meta, "pairs": pairs}, f, separators=(",", ":"))


def bench(gwf):
    """POT's CG and gwf gw --solver cg on the same Erdos-Renyi pairs, each timed twice,
    interleaved, best of the two; the median over the pairs of each size (the number of
    iterations, and so the time, depends on which of many tied optimal vertices each OT step
    returns). gwf's time is the solve time it reports, without process start and reading; POT's
    is wall time and CPU time (numpy may use more than one thread)."""
    import os
    import statistics
    import subprocess
    import tempfile
    rng = np.random.default_rng(7)
    tmp = tempfile.mkdtemp()
    for n, pairs in [(20, 7), (50, 7), (100, 7), (200, 3), (500, 1)]:
        pot, potcpu, ours, ratio, its = [], [], [], [], []
        for k in range(pairs):
            c1, c2 = graph(rng, "er", n), graph(rng, "er", n)
            paths = []
            for side, c in enumerate((c1, c2)):
                paths.append(os.path.join(tmp, f"{n}_{k}_{side}.json"))
                with open(paths[-1], "w") as f:
                    json.dump({"adjacency": c.tolist()}, f)
            tp, tc, to = [], [], []
            for _ in range(2):
                _, obj, secs = solve(c1, c2, None, None, 1.0)
                tp.append(secs)
                tc.append(solve.cpu)
                out = json.loads(subprocess.run([gwf, "gw", *paths, "--solver", "cg", "--json"], check=True,
                                                capture_output=True, text=True).stdout)
                to.append(out["seconds"])
            pot.append(min(tp))
            potcpu.append(min(tc))
            ours.append(min(to))
            ratio.append(out["objective"] / obj)
            its.append(out["iterations"])
        print(f"N={n} ({pairs} pairs): POT {ot.__version__} CG median {statistics.median(pot) * 1e3:.1f} ms "
              f"(CPU {statistics.median(potcpu) * 1e3:.1f} ms), "
              f"gwf cg {statistics.median(ours) * 1e3:.1f} ms; gwf/POT time median "
              f"{statistics.median([o / p for o, p in zip(ours, pot)]):.2f}; objective ratio median "
              f"{statistics.median(ratio):.4f}; gwf iterations median {statistics.median(its)}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        bench(sys.argv[2])
    else:
        fixtures()
