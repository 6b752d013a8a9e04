#!/usr/bin/env python3
"""Writes shortest_paths.json, the fixture of graphs/structure_test.go.

Each graph is given by its dense adjacency (weights are lengths, 0 is no edge, a directed
graph is read as undirected with the smaller weight of the two directions) and by its
shortest-path matrix as FGW's code builds it (tvayer/FGW lib/graph.py distance_matrix):
scipy's shortest_path, then infinite distances replaced by 10 times the largest finite one
(1 when the graph has no edge at all, gwf's convention). networkx checks scipy's matrix.

Run from the repository root:  python3 graphs/testdata/shortest_paths.py
Needs numpy, scipy and networkx (written with networkx 2.8.8, scipy 1.x).
"""
import json
import os

import networkx as nx
import numpy as np
from scipy.sparse.csgraph import shortest_path


def undirected_min(a):
    """The symmetric matrix of the smaller non-zero weight of (i, j) and (j, i)."""
    a = np.asarray(a, dtype=float)
    at = a.T
    both = (a > 0) & (at > 0)
    s = np.where(both, np.minimum(a, at), np.maximum(a, at))
    np.fill_diagonal(s, 0)
    return s


def fgw_distances(a):
    """scipy's shortest paths on a read as undirected, with FGW's replacement of inf."""
    a = np.asarray(a, dtype=float)
    # directed=False lets a path use (i, j) or (j, i), whichever is shorter: the min rule.
    d = shortest_path(a, method="D", directed=False)
    finite = d[np.isfinite(d)]
    big = finite.max()
    d[np.isinf(d)] = 10 * big if big > 0 else 1.0
    return d


def networkx_distances(a):
    """The same matrix computed by networkx from the min-symmetrized graph."""
    s = undirected_min(a)
    n = len(s)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if s[i, j] > 0:
                g.add_edge(i, j, weight=s[i, j])
    d = np.full((n, n), np.inf)
    for u, lengths in nx.all_pairs_dijkstra_path_length(g, weight="weight"):
        for v, length in lengths.items():
            d[u, v] = length
    finite = d[np.isfinite(d)]
    big = finite.max()
    d[np.isinf(d)] = 10 * big if big > 0 else 1.0
    return d


def dense(g, weight=None):
    return nx.to_numpy_array(g, nodelist=sorted(g.nodes()), weight=weight)


def cases():
    rng = np.random.default_rng(20190609)
    out = []
    out.append(("path-5", dense(nx.path_graph(5))))
    out.append(("cycle-7", dense(nx.cycle_graph(7))))
    tree = nx.random_tree(12, seed=3) if hasattr(nx, "random_tree") else nx.balanced_tree(2, 3)
    out.append(("tree", dense(tree)))
    two = nx.disjoint_union(nx.path_graph(3), nx.cycle_graph(4))
    out.append(("two-components", dense(two)))
    iso = nx.path_graph(4)
    iso.add_node(4)
    out.append(("isolated-node", dense(iso)))
    out.append(("no-edge", np.zeros((3, 3))))
    w = nx.Graph()
    w.add_nodes_from(range(6))
    for u, v in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5), (1, 4), (0, 3)]:
        w.add_edge(u, v, weight=float(rng.uniform(0.1, 3.0)))
    wa = dense(w, weight="weight")
    wa[2, 2] = 0.75  # a self-loop, which no shortest path uses
    out.append(("weighted", wa))
    d = np.zeros((6, 6))
    for u, v, x in [(0, 1, 2.5), (1, 0, 0.5), (1, 2, 1.25), (2, 3, 4.0), (3, 2, 3.0),
                    (3, 4, 0.3), (4, 0, 7.0), (5, 4, 1.1), (2, 5, 0.9)]:
        d[u, v] = x
    out.append(("directed-min", d))
    gnp = nx.gnp_random_graph(15, 0.2, seed=7)
    out.append(("gnp-15", dense(gnp)))
    wg = nx.gnp_random_graph(10, 0.3, seed=11)
    for u, v in wg.edges():
        wg[u][v]["weight"] = float(rng.uniform(0.01, 10.0))
    out.append(("gnp-10-weighted", dense(wg, weight="weight")))
    return out


def main():
    graphs = []
    for name, a in cases():
        want = fgw_distances(a)
        check = networkx_distances(a)
        assert np.allclose(want, check, rtol=1e-13, atol=0), name
        graphs.append({
            "name": name,
            "adjacency": a.tolist(),
            "distances": want.tolist(),
        })
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shortest_paths.json")
    with open(path, "w") as f:
        json.dump({
            "generator": "graphs/testdata/shortest_paths.py (scipy shortest_path, checked "
                         "against networkx; inf replaced by 10 x the largest finite distance)",
            "graphs": graphs,
        }, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
