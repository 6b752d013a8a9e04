#!/usr/bin/env python3
"""Writes wl_edge_codes.json, the fixture of TestWLCodesWithEdgesNetworkx (graphs/wl_test.go).

Random undirected graphs with node labels 0-4 and edge labels 0-3 (single digits, so that
networkx's string concatenation of an edge label with a neighbour's label is unambiguous),
some of them copies with their nodes relabelled, with networkx's Weisfeiler-Lehman subgraph
hashes refined by the edge labels (weisfeiler_lehman_subgraph_hashes with edge_attr, 4
iterations): the test checks that WLCodesWithEdges splits the nodes of all graphs exactly as
these hashes do at every iteration.

Run from the repository root:  python3 graphs/testdata/wl_edge_codes.py
Needs networkx (written with networkx 3.6.1).
"""
import json
import os
import random

import networkx as nx

ITERATIONS = 4


def case(name, g):
    hashes = nx.weisfeiler_lehman_subgraph_hashes(g, edge_attr="label", node_attr="label", iterations=ITERATIONS)
    nodes = sorted(g.nodes())
    return {
        "name": name,
        "nodes": len(nodes),
        "edges": [[u, v, int(d["label"])] for u, v, d in g.edges(data=True)],
        "labels": [g.nodes[v]["label"] for v in nodes],
        "hashes": [hashes[v] for v in nodes],
    }


def main():
    rng = random.Random(11)
    cases = []
    for k in range(10):
        n = rng.randint(4, 14)
        g = nx.gnp_random_graph(n, rng.uniform(0.15, 0.5), seed=rng.randint(0, 10**6))
        for v in g.nodes():
            g.nodes[v]["label"] = str(rng.randint(0, 2 if k % 2 else 4))
        for u, v in g.edges():
            g.edges[u, v]["label"] = str(rng.randint(0, 1 if k % 3 else 3))
        cases.append(case("random-%d" % k, g))
        if k % 3 == 0:  # a relabelled copy: the same codes, permuted
            perm = list(range(n))
            rng.shuffle(perm)
            cases.append(case("random-%d-relabelled" % k, nx.relabel_nodes(g, dict(enumerate(perm)))))
    # one node label: a cycle of alternating bonds splits nothing, a path's bonds split its ends
    for name, g in [("cycle-6", nx.cycle_graph(6)), ("path-5", nx.path_graph(5))]:
        for v in g.nodes():
            g.nodes[v]["label"] = "0"
        for i, (u, v) in enumerate(g.edges()):
            g.edges[u, v]["label"] = str(i % 2)
        cases.append(case(name, g))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wl_edge_codes.json")
    with open(out, "w") as f:
        json.dump({"iterations": ITERATIONS, "graphs": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
