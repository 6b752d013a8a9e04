"""Writes a folder of networkx graphs as a user brings them: node-link JSON files and a
labels.csv, three classes of stochastic block models with 2, 3 or 4 blocks (18-45 nodes,
p_in 0.5, p_out 0.08). Test data only; gwf itself does not use Python.

    python3 make_user_folder.py DIR COUNT SEED     # e.g. train 150 1, then unseen 45 2
"""
import json
import os
import random
import sys

import networkx as nx
from networkx.readwrite import json_graph


def make(dirname, n, seed):
    os.makedirs(dirname, exist_ok=True)
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        c = i % 3
        blocks = c + 2
        nodes = rng.randint(18, 45)
        sizes = [nodes // blocks + (1 if b < nodes % blocks else 0) for b in range(blocks)]
        p = [[0.5 if a == b else 0.08 for b in range(blocks)] for a in range(blocks)]
        g = nx.Graph(nx.stochastic_block_model(sizes, p, seed=rng.randint(0, 10**9)))
        for v in g.nodes:
            g.nodes[v].pop("block", None)
        g.graph = {}
        name = "g%03d.json" % i
        with open(os.path.join(dirname, name), "w") as f:
            json.dump(json_graph.node_link_data(g), f)
        rows.append("%s,%s" % (name, ["two", "three", "four"][c]))
    with open(os.path.join(dirname, "labels.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    make(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
