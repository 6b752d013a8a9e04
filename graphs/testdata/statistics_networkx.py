#!/usr/bin/env python3
"""Writes statistics.json, the fixture of graphs/statistics_test.go.

A few small graphs (path, cycle, star, complete, a random graph, a disconnected graph, a graph
without edges, a single node) with the global statistics graphs.Statistics computes, as
networkx and numpy compute them: the test compares gwf's values with these.

Run from the repository root:  /usr/bin/python3 graphs/testdata/statistics_networkx.py
Needs networkx and numpy (written with Debian's networkx 2.8.8 and numpy 1.24.2).
"""
import json
import os
import warnings

import networkx as nx
import numpy as np

NAMES = [
    "nodes", "edges", "density",
    "degree_mean", "degree_std", "degree_min", "degree_max", "degree_q25", "degree_median", "degree_q75",
    "degree_frac_0", "degree_frac_1", "degree_frac_2", "degree_frac_3", "degree_frac_4", "degree_frac_5plus",
    "average_clustering", "transitivity", "degree_assortativity",
    "components", "largest_component_fraction", "average_shortest_path_length", "diameter",
    "adjacency_eig_max", "adjacency_eig_second", "adjacency_eig_min",
    "normalized_laplacian_eig_second", "normalized_laplacian_eig_max",
]


def statistics(g):
    n = g.number_of_nodes()
    deg = np.array([d for _, d in sorted(g.degree())], dtype=float)
    s = {
        "nodes": n,
        "edges": g.number_of_edges(),
        "density": nx.density(g),
        "degree_mean": deg.mean(),
        "degree_std": deg.std(),
        "degree_min": deg.min(),
        "degree_max": deg.max(),
        "degree_q25": np.percentile(deg, 25),
        "degree_median": np.percentile(deg, 50),
        "degree_q75": np.percentile(deg, 75),
    }
    for k in range(5):
        s[f"degree_frac_{k}"] = float(np.mean(deg == k))
    s["degree_frac_5plus"] = float(np.mean(deg >= 5))
    s["average_clustering"] = nx.average_clustering(g)
    s["transitivity"] = nx.transitivity(g)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = nx.degree_assortativity_coefficient(g)
        except (ValueError, ZeroDivisionError, IndexError):
            r = float("nan")
    s["degree_assortativity"] = 0.0 if not np.isfinite(r) else r
    comps = list(nx.connected_components(g))
    largest = max(comps, key=len)  # the first of the largest, in the order of their lowest nodes
    s["components"] = len(comps)
    s["largest_component_fraction"] = len(largest) / n
    lcc = g.subgraph(sorted(largest))
    if len(largest) > 1:
        s["average_shortest_path_length"] = nx.average_shortest_path_length(lcc)
        s["diameter"] = nx.diameter(lcc)
    else:
        s["average_shortest_path_length"] = 0.0
        s["diameter"] = 0
    a = np.linalg.eigvalsh(nx.to_numpy_array(lcc, nodelist=sorted(largest)))
    lap = np.linalg.eigvalsh(nx.normalized_laplacian_matrix(lcc, nodelist=sorted(largest)).toarray())
    s["adjacency_eig_max"] = a[-1]
    s["adjacency_eig_second"] = a[-2] if len(a) > 1 else 0.0
    s["adjacency_eig_min"] = a[0]
    s["normalized_laplacian_eig_second"] = lap[1] if len(lap) > 1 else 0.0
    s["normalized_laplacian_eig_max"] = lap[-1]
    return [float(s[k]) for k in NAMES]


def case(name, g):
    g = nx.convert_node_labels_to_integers(g)
    return {"name": name, "nodes": g.number_of_nodes(), "edges": [[u, v] for u, v in g.edges()],
            "statistics": statistics(g)}


def main():
    disconnected = nx.disjoint_union_all([nx.path_graph(3), nx.complete_graph(4), nx.empty_graph(1), nx.cycle_graph(4)])
    cases = [
        case("path-6", nx.path_graph(6)),
        case("cycle-7", nx.cycle_graph(7)),
        case("star-6", nx.star_graph(5)),
        case("complete-5", nx.complete_graph(5)),
        case("gnp-30", nx.gnp_random_graph(30, 0.15, seed=3)),
        case("barabasi-albert-40", nx.barabasi_albert_graph(40, 2, seed=4)),
        case("powerlaw-cluster-35", nx.powerlaw_cluster_graph(35, 2, 0.6, seed=5)),
        case("disconnected", disconnected),
        case("no-edges-4", nx.empty_graph(4)),
        case("single-node", nx.empty_graph(1)),
        case("two-triangles", nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
    ]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "statistics.json")
    with open(out, "w") as f:
        json.dump({"names": NAMES, "networkx": nx.__version__, "graphs": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
