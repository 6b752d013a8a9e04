"""POT's exact FGW on the pairs of the first N MUTAG graphs, one thread, beside gwf's.

Shortest-path structures, one-hot node labels (squared Euclidean feature cost), uniform node
weights, one start (the product coupling): POT 0.8.2's ot.gromov.fused_gromov_wasserstein with
alpha = 0.5, whose objective is half gwf's with feature weight 1 (gwf: GW term + w·<D, T>).
Reads MUTAG's TU files itself. Usage, gwf's side first (fgwthroughput/main.go writes gwf.csv:
i,j,objective,iterations):

    go run ./docs/results/classification/fgwthroughput --tu ../shared/data/tu/MUTAG --n 60 --out gwf.csv
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 docs/results/classification/fgw_throughput.py ../shared/data/tu/MUTAG 60 gwf.csv
"""
import csv
import gzip
import sys
import time

import numpy as np
import ot
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path


def lines(folder, name):
    with gzip.open(f"{folder}/MUTAG_{name}.txt.gz", "rt") as f:
        return [l.strip() for l in f if l.strip()]


def read(folder, n):
    ind = np.array([int(x) for x in lines(folder, "graph_indicator")]) - 1
    lab = np.array([int(x) for x in lines(folder, "node_labels")])
    values = np.unique(lab)
    edges = np.array([[int(v) for v in l.split(",")] for l in lines(folder, "A")]) - 1
    out = []
    for g in range(n):
        nodes = np.flatnonzero(ind == g)
        first, k = nodes[0], len(nodes)
        e = edges[(ind[edges[:, 0]] == g)] - first
        a = csr_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(k, k))
        c = shortest_path(a, directed=False, unweighted=True)
        f = (lab[nodes][:, None] == values[None, :]).astype(float)
        out.append((c, f, np.full(k, 1.0 / k)))
    return out


def main():
    folder, n, gwf_csv = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    gs = read(folder, n)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    obj = []
    start = time.perf_counter()
    for i, j in pairs:
        (c1, f1, p), (c2, f2, q) = gs[i], gs[j]
        m = ot.dist(f1, f2)
        _, log = ot.gromov.fused_gromov_wasserstein(m, c1, c2, p, q, loss_fun="square_loss", alpha=0.5, log=True)
        obj.append(log["fgw_dist"])
    sec = time.perf_counter() - start
    gwf = {}
    with open(gwf_csv) as f:
        for r in csv.DictReader(f):
            gwf[(int(r["i"]), int(r["j"]))] = float(r["objective"])
    ratio = np.array([o / (0.5 * gwf[p]) for o, p in zip(obj, pairs) if gwf[p] > 1e-12])
    lower = sum(o < 0.5 * gwf[p] - 1e-9 for o, p in zip(obj, pairs))
    higher = sum(o > 0.5 * gwf[p] + 1e-9 for o, p in zip(obj, pairs))
    print(f"POT: {len(pairs)} pairs in {sec:.3f} s: {len(pairs) / sec:.0f} pairs/s")
    print(f"objective POT / gwf: mean {ratio.mean():.4f}, median {np.median(ratio):.4f}; POT lower on {lower}, higher on {higher} of {len(pairs)}")


if __name__ == "__main__":
    main()
