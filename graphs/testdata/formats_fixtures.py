#!/usr/bin/env python3
"""Writes testdata/formats/, the fixtures of graphs/graphml_test.go, gml_test.go, edgelist_test.go
and formats_more_test.go.

A few small graphs (weighted, unweighted, directed, a multigraph; numeric and string node
attributes; a graph label; an isolated node; a self-loop) are written by networkx as GraphML
(write_graphml), GML (write_gml) and default edge lists (write_edgelist, "u v {dict}" lines).
expected.json gives, for each file, what the Go readers should make of it:

  nodes      the node names, in the order of the rows of C
  adjacency  the dense C (weights, 1 when absent; parallel edges add up; an undirected graph
             is symmetric; a self-loop's weight once on the diagonal)
  features   the numeric node attributes (int and float, not bool), by name in sorted order,
             or null when the nodes have none
  label      the graph's "label", or null
  directed   for edge lists: read them as directed

Adjacency lists (write_adjlist; not of the multigraph) lose weights, attributes and the label;
graph6 files (write_graph6; the simple undirected graphs) lose weights too; NumPy files
(numpy.save of to_numpy_array) keep the weights and lose the node names.

Edge lists lose isolated nodes, node attributes and the label; their nodes are ordered as
EdgeListOptions{IDs: NodeNames} orders them (by number when all are integers, else by first
appearance), and a pair that appears twice takes the weight of its last line, as networkx's
read_edgelist does too.

The Petersen graph is also written as graph6 (petersen.g6), with its adjacency.

Run from the repository root:  /usr/bin/python3 graphs/testdata/formats_fixtures.py
Needs networkx (written with networkx 2.8.8) and numpy.
"""
import json
import os

import networkx as nx
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "formats")


def weighted():
    """Undirected, weighted, string node names, numeric and string attributes, an isolated
    node and a self-loop, graph label 2."""
    g = nx.Graph(label=2, name="weighted")
    for name, charge, size in [("a", 0.5, 1), ("b", -1.0, 2), ("c", 0.25, 3), ("d", 2.0, 4), ("iso", 0.0, 5)]:
        g.add_node(name, charge=charge, size=size, kind="atom-" + name)
    g.add_edge("a", "b", weight=2.5, bond="double")
    g.add_edge("b", "c", weight=1.0)
    g.add_edge("c", "a", weight=0.5)
    g.add_edge("c", "d", weight=3)
    g.add_edge("d", "d", weight=1.5)
    return g


def unweighted():
    """Undirected path on integer nodes with an isolated node, no attributes, label 0."""
    g = nx.Graph(label=0)
    g.add_nodes_from(range(5))
    nx.add_path(g, [0, 1, 2, 3])
    return g


def directed():
    """Directed, both directions of one pair with different weights, label 1."""
    g = nx.DiGraph(label=1)
    for i, (charge, size) in enumerate([(1.0, 1), (0.5, 2), (-0.5, 3)]):
        g.add_node(i, charge=charge, size=size)
    g.add_edge(0, 1, weight=2.0)
    g.add_edge(1, 0, weight=4.0)
    g.add_edge(1, 2)
    g.add_edge(2, 0, weight=0.25)
    return g


def multigraph():
    """Undirected multigraph: parallel edges add up (in GraphML and GML), label 1."""
    g = nx.MultiGraph(label=1)
    for i in range(3):
        g.add_node(i, charge=float(i), size=i + 1)
    g.add_edge(0, 1, weight=1.0)
    g.add_edge(0, 1, weight=2.0)
    g.add_edge(1, 2)
    return g


def numeric(v):
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def features(g, nodes):
    names = sorted({k for n in nodes for k, v in g.nodes[n].items() if numeric(v)})
    if not names:
        return None
    return [[float(g.nodes[n][k]) for k in names] for n in nodes]


def adjacency(g, nodes):
    return nx.to_numpy_array(g, nodelist=nodes, weight="weight", multigraph_weight=sum).tolist()


def edgelist_expected(path, directed):
    """Read the edge list back as the Go reader does: NodeNames order, last line wins."""
    order = []
    for line in open(path):
        for name in line.split()[:2]:
            if name not in order:
                order.append(name)
    if all(n.lstrip("-").isdigit() for n in order):
        order.sort(key=int)
    h = nx.read_edgelist(path, nodetype=str, create_using=nx.DiGraph if directed else nx.Graph)
    return order, nx.to_numpy_array(h, nodelist=order, weight="weight").tolist()


def first_appearance(path):
    """The node names of a text file in the order the Go reader numbers them."""
    order = []
    for line in open(path):
        for name in line.split("#")[0].split():
            if name not in order:
                order.append(name)
    if all(n.lstrip("-").isdigit() for n in order):
        order.sort(key=int)
    return order


def more_formats(name, g):
    """Adjacency list, graph6 and .npy of g, with what the Go readers should make of them."""
    out = []
    nodes = list(g.nodes)
    if not g.is_multigraph():
        path = os.path.join(OUT, name + ".adjlist")
        nx.write_adjlist(g, path)
        order = first_appearance(path)
        h = nx.read_adjlist(path, create_using=nx.DiGraph if g.is_directed() else nx.Graph)
        out.append({"file": name + ".adjlist", "nodes": order, "adjacency": nx.to_numpy_array(h, nodelist=order, weight=None).tolist(),
                    "features": None, "label": None, "directed": g.is_directed()})
    if not g.is_directed() and not g.is_multigraph() and nx.number_of_selfloops(g) == 0:
        path = os.path.join(OUT, name + ".g6")
        nx.write_graph6(g, path)
        h = nx.read_graph6(path)
        out.append({"file": name + ".g6", "nodes": [str(n) for n in h.nodes], "adjacency": nx.to_numpy_array(h, weight=None).tolist(),
                    "features": None, "label": None, "directed": False})
    path = os.path.join(OUT, name + ".npy")
    np.save(path, np.array(adjacency(g, nodes)))
    out.append({"file": name + ".npy", "nodes": [str(i) for i in range(len(nodes))], "adjacency": adjacency(g, nodes),
                "features": None, "label": None, "directed": g.is_directed()})
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = []
    for name, g in [("weighted", weighted()), ("unweighted", unweighted()), ("directed", directed()), ("multigraph", multigraph())]:
        nodes = list(g.nodes)
        label = g.graph.get("label")
        for ext, write in [("graphml", nx.write_graphml), ("gml", nx.write_gml)]:
            path = os.path.join(OUT, name + "." + ext)
            write(g, path)
            expected.append({
                "file": name + "." + ext,
                "nodes": [str(n) for n in nodes],
                "adjacency": adjacency(g, nodes),
                "features": features(g, nodes),
                "label": label,
                "directed": g.is_directed(),
            })
        expected += more_formats(name, g)
        path = os.path.join(OUT, name + ".edgelist")
        nx.write_edgelist(g, path)  # data=True: "u v {attributes}"
        order, adj = edgelist_expected(path, g.is_directed())
        expected.append({
            "file": name + ".edgelist",
            "nodes": order,
            "adjacency": adj,
            "features": None,
            "label": None,
            "directed": g.is_directed(),
        })
    p = nx.petersen_graph()
    nx.write_graph6(p, os.path.join(OUT, "petersen.g6"))
    expected.append({"file": "petersen.g6", "nodes": [str(n) for n in p.nodes], "adjacency": nx.to_numpy_array(p).tolist(),
                     "features": None, "label": None, "directed": False})
    # networkx reads its own files back to the same graphs (a check of the expectations).
    for e in expected:
        path = os.path.join(OUT, e["file"])
        if e["file"].endswith(".graphml"):
            h = nx.read_graphml(path)
        elif e["file"].endswith(".gml"):
            h = nx.read_gml(path)
        else:
            continue
        assert [str(n) for n in h.nodes] == e["nodes"], e["file"]
        assert adjacency(h, list(h.nodes)) == e["adjacency"], e["file"]
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        f.write('{"networkx": %s, "graphs": [\n' % json.dumps(nx.__version__))
        f.write(",\n".join(json.dumps(e) for e in expected))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
