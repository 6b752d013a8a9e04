"""Writes two folders of networkx graphs whose node features do not carry the class, as users
bring them: node-link JSON files and a labels.csv. Test data only; gwf itself does not use
Python.

    python3 make_noisy_feature_folders.py rgg DIR      # random geometric graphs, 3 radii
    python3 make_noisy_feature_folders.py shapes DIR   # cycles, paths, stars, random labels

rgg: 90 random geometric graphs (20-40 nodes in the unit square) of radius 0.2, 0.27 or 0.34
(the class), saved with networkx's "pos" node attribute (two coordinates: numeric features).
shapes: 60 cycles, paths and stars (5-12 nodes; the class), some with an isolated node or a
disjoint 3-node path, one a single node, each node with a random "kind" C, N or O (a string:
a node label) and random edge weights 1 or 2.
"""
import csv
import json
import os
import random
import sys

import networkx as nx


def rgg(dirname):
    rows = []
    rng = random.Random(5)
    for i in range(90):
        c = i % 3
        g = nx.random_geometric_graph(rng.randint(20, 40), [0.2, 0.27, 0.34][c], seed=i)
        rows.append(write(dirname, i, g, c))
    return rows


def shapes(dirname):
    rows = []
    rng = random.Random(3)
    for i in range(60):
        c = i % 3
        if c == 0:
            g = nx.cycle_graph(rng.randint(5, 12))
        elif c == 1:
            g = nx.path_graph(rng.randint(5, 12))
        else:
            g = nx.star_graph(rng.randint(4, 11))
        if i % 7 == 0:
            g.add_node(100)
        if i % 11 == 0:
            g = nx.disjoint_union(g, nx.path_graph(3))
        for n in g.nodes:
            g.nodes[n]["kind"] = rng.choice(["C", "N", "O"])
        for u, v in g.edges:
            g.edges[u, v]["weight"] = rng.choice([1, 2])
        if i == 5:
            g = nx.Graph()
            g.add_node(0, kind="C")
        rows.append(write(dirname, i, g, ["cycle", "path", "star"][c]))
    return rows


def write(dirname, i, g, label):
    name = "g%03d.json" % i
    with open(os.path.join(dirname, name), "w") as f:
        json.dump(node_link(g), f)
    return (name, label)


def node_link(g):
    try:
        return nx.node_link_data(g, edges="links")  # networkx 3.4 and later
    except TypeError:
        return nx.node_link_data(g)  # earlier versions name the edges "links" already


if __name__ == "__main__":
    kind, dirname = sys.argv[1], sys.argv[2]
    os.makedirs(dirname, exist_ok=True)
    rows = {"rgg": rgg, "shapes": shapes}[kind](dirname)
    with open(os.path.join(dirname, "labels.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "label"])
        w.writerows(rows)
