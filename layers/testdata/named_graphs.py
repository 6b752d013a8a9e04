#!/usr/bin/env python3
"""Named and random graphs from networkx (an independent source) for TestCGRelabelledGraphs.

Writes testdata/named_graphs.json: {"name": [[i, j], ...]}, the edge lists of graphs with many
automorphisms (vertex-transitive cubic graphs, hypercubes, lattices, trees) and of graphs with
none whose nodes all look alike (the Frucht and Tutte graphs, random regular graphs): the
cases where GW's solvers stop at a stationary point above 0 against a relabelled copy. Nodes are
numbered 0..n-1 in networkx's order. Run from layers/ (needs python3-networkx):

    python3 testdata/named_graphs.py
"""
import json

import networkx as nx

NAMED = [
    "petersen_graph", "dodecahedral_graph", "desargues_graph", "heawood_graph",
    "moebius_kantor_graph", "pappus_graph", "truncated_tetrahedron_graph", "cubical_graph",
    "octahedral_graph", "icosahedral_graph", "chvatal_graph", "frucht_graph", "tutte_graph",
    "house_graph", "karate_club_graph", "krackhardt_kite_graph", "truncated_cube_graph",
    "hoffman_singleton_graph", "florentine_families_graph",
]


def edges(g):
    g = nx.convert_node_labels_to_integers(g)
    return sorted([min(u, v), max(u, v)] for u, v in g.edges())


def main():
    graphs = {name.removesuffix("_graph"): edges(getattr(nx, name)()) for name in NAMED}
    for d, n in [(3, 12), (3, 20), (4, 16), (5, 30)]:
        graphs[f"random_{d}_regular_{n}"] = edges(nx.random_regular_graph(d, n, seed=n))
    graphs["hypercube_5"] = edges(nx.hypercube_graph(5))
    graphs["circular_ladder_8"] = edges(nx.circular_ladder_graph(8))
    graphs["balanced_tree_3_3"] = edges(nx.balanced_tree(3, 3))
    graphs["grid_6x7"] = edges(nx.grid_2d_graph(6, 7))
    graphs["triangular_lattice_3x5"] = edges(nx.triangular_lattice_graph(3, 5))
    graphs["hexagonal_lattice_2x3"] = edges(nx.hexagonal_lattice_graph(2, 3))
    graphs["lollipop_5_6"] = edges(nx.lollipop_graph(5, 6))
    graphs["barbell_5_3"] = edges(nx.barbell_graph(5, 3))
    graphs["wheel_12"] = edges(nx.wheel_graph(12))
    graphs["ladder_7"] = edges(nx.ladder_graph(7))
    with open("testdata/named_graphs.json", "w") as f:
        json.dump(graphs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
