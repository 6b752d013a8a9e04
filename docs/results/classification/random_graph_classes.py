#!/usr/bin/env python3
"""Writes the "random-graph classes" folder of docs/results/classification/random-graph-classes.md.

200 GraphML graphs in 4 classes of 50, 20 to 50 nodes each: preferential attachment
(barabasi_albert_graph, m = 2), uniform random (gnm_random_graph with the edges of a
preferential-attachment graph of the same size, so that size and density do not tell the
classes apart), small world (watts_strogatz_graph, k = 4, p = 0.1) and power-law cluster
(powerlaw_cluster_graph, m = 2, p = 0.5). Every node has a numeric attribute "noise" drawn
from N(0, 1): it carries no class. labels.csv gives each file's class.

Run:  /usr/bin/python3 docs/results/classification/random_graph_classes.py OUTDIR [SEED]
(SEED 62 by default: the folder measured; other seeds give folders of the same kind.)
Needs networkx (written with Debian's networkx 2.8.8).
"""
import os
import random
import sys

import networkx as nx


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "random-graph-classes"
    os.makedirs(out, exist_ok=True)
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 62)
    rows = ["file,label"]
    classes = ["barabasi_albert", "uniform_random", "small_world", "powerlaw_cluster"]
    for i in range(200):
        label = classes[i % 4]
        n = rng.randint(20, 50)
        seed = rng.randrange(2**31)
        if label == "barabasi_albert":
            g = nx.barabasi_albert_graph(n, 2, seed=seed)
        elif label == "uniform_random":
            g = nx.gnm_random_graph(n, 2 * (n - 2), seed=seed)
        elif label == "small_world":
            g = nx.watts_strogatz_graph(n, 4, 0.1, seed=seed)
        else:
            g = nx.powerlaw_cluster_graph(n, 2, 0.5, seed=seed)
        for v in g.nodes():
            g.nodes[v]["noise"] = rng.gauss(0, 1)
        name = f"g{i:03d}.graphml"
        nx.write_graphml(g, os.path.join(out, name))
        rows.append(f"{name},{label}")
    with open(os.path.join(out, "labels.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
