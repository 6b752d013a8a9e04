"""Write a TU dataset as a user would bring it: one networkx node-link JSON file per graph,
the node label as a string node attribute ("element": "el3"), the edge label as the links'
"label" (a text: "bond2"), and a labels.csv of the TU class labels. With --int-labels the
node label is an integer attribute "label" (G.nodes[v]["label"] = 3) and the edge label an
integer, as converters of TU data to networkx write them.

    python3 tu_to_networkx.py TU_DIR NAME OUT_DIR [--int-labels]

Needs networkx only; reads plain or gzipped TU files."""
import csv
import gzip
import json
import os
import sys

import networkx as nx


def node_link(g):
    try:
        return nx.node_link_data(g, edges="links")  # networkx 3.4 and later
    except TypeError:
        return nx.node_link_data(g)  # earlier versions name the edges "links" already


def lines(path):
    for p in (path + ".txt", path + ".txt.gz"):
        if os.path.exists(p):
            opener = gzip.open if p.endswith(".gz") else open
            with opener(p, "rt") as f:
                return [l.strip() for l in f if l.strip()]
    return None


def main(tu, name, out, ints=False):
    base = os.path.join(tu, name)
    indicator = [int(x) for x in lines(base + "_graph_indicator")]
    classes = [int(x) for x in lines(base + "_graph_labels")]
    node_labels = lines(base + "_node_labels")
    edge_labels = lines(base + "_edge_labels")
    graphs = [nx.Graph() for _ in classes]
    for v, g in enumerate(indicator):
        attrs = {}
        if node_labels:
            attrs = {"label": int(node_labels[v])} if ints else {"element": "el" + node_labels[v]}
        graphs[g - 1].add_node(v, **attrs)
    for k, line in enumerate(lines(base + "_A")):
        u, v = (int(x) - 1 for x in line.split(","))
        attrs = {}
        if edge_labels:
            attrs = {"label": int(edge_labels[k]) if ints else "bond" + edge_labels[k]}
        graphs[indicator[u] - 1].add_edge(u, v, **attrs)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "labels.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["graph", "label"])
        for i, (g, y) in enumerate(zip(graphs, classes)):
            file = "g%04d.json" % i
            with open(os.path.join(out, file), "w") as gf:
                json.dump(node_link(g), gf)
            w.writerow([file, y])


if __name__ == "__main__":
    main(*sys.argv[1:4], ints="--int-labels" in sys.argv[4:])
