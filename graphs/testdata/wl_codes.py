#!/usr/bin/env python3
"""Writes wl_codes.json, the fixture of graphs/wl_test.go.

Random undirected graphs with node labels 0-4 (single digits, so that networkx's string
concatenation of labels is unambiguous), some of them relabelled copies of others, with
networkx's Weisfeiler-Lehman subgraph hashes (weisfeiler_lehman_subgraph_hashes, 4
iterations): the test checks that gwf's codes split the nodes of all graphs exactly as these
hashes do at every iteration.

Run from the repository root:  /usr/bin/python3 graphs/testdata/wl_codes.py
Needs networkx (written with networkx 2.8.8).
"""
import json
import os
import random

import networkx as nx

ITERATIONS = 4


def case(name, g):
    hashes = nx.weisfeiler_lehman_subgraph_hashes(g, node_attr="label", iterations=ITERATIONS)
    nodes = sorted(g.nodes())
    return {
        "name": name,
        "nodes": len(nodes),
        "edges": [[u, v] for u, v in g.edges()],
        "labels": [g.nodes[v]["label"] for v in nodes],
        "hashes": [hashes[v] for v in nodes],
    }


def main():
    rng = random.Random(7)
    cases = []
    for k in range(10):
        n = rng.randint(4, 14)
        g = nx.gnp_random_graph(n, rng.uniform(0.15, 0.5), seed=rng.randint(0, 10**6))
        for v in g.nodes():
            g.nodes[v]["label"] = str(rng.randint(0, 2 if k % 2 else 4))
        cases.append(case("random-%d" % k, g))
        if k % 3 == 0:  # a relabelled copy: the same codes, permuted
            perm = list(range(n))
            rng.shuffle(perm)
            cases.append(case("random-%d-relabelled" % k, nx.relabel_nodes(g, dict(enumerate(perm)))))
    # regular graphs with one label: WL cannot split a cycle, it splits a path by distance to the ends
    for name, g in [("cycle-6", nx.cycle_graph(6)), ("path-6", nx.path_graph(6)), ("star-5", nx.star_graph(4))]:
        for v in g.nodes():
            g.nodes[v]["label"] = "0"
        cases.append(case(name, g))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wl_codes.json")
    with open(out, "w") as f:
        json.dump({"iterations": ITERATIONS, "graphs": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
