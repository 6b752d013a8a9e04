#!/usr/bin/env python3
"""The random-forest baseline of cheap-candidates.md: a random forest (500 trees) on the 28
networkx statistics that graphs.Statistics computes (graphs/testdata/statistics_networkx.py),
stratified 10-fold cross-validation with three shuffles, on a folder written by
random_graph_classes.py.

Run from the repository root:
  /usr/bin/python3 docs/results/classification/random_graph_classes_rf.py rgc
Needs networkx, numpy and scikit-learn (Debian's 2.8.8, 1.24.2 and 1.2.1).
"""
import csv
import os
import sys

import networkx as nx
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "graphs", "testdata"))
from statistics_networkx import statistics  # noqa: E402


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "labels.csv")) as f:
        rows = list(csv.reader(f))[1:]
    x, y = [], []
    for name, label in rows:
        g = nx.convert_node_labels_to_integers(nx.read_graphml(os.path.join(folder, name)))
        x.append(statistics(g))
        y.append(label)
    x, y = np.array(x), np.array(y)
    for seed in (1, 2, 3):
        folds = StratifiedKFold(10, shuffle=True, random_state=seed)
        s = cross_val_score(RandomForestClassifier(500, random_state=seed), x, y, cv=folds)
        print(f"{folder}: random forest, shuffle {seed}: {100 * s.mean():.1f} ± {100 * s.std():.1f}")


if __name__ == "__main__":
    main()
