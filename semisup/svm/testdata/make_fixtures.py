#!/usr/bin/env python3
"""Write sklearn_svc.json, the scikit-learn reference cases for the Go package semisup/svm.

Rerun from the repository root (needs numpy and scikit-learn; written with scikit-learn 1.2.1):

    /usr/bin/python3 semisup/svm/testdata/make_fixtures.py

The output is deterministic for a given numpy and scikit-learn. Each case trains
SVC(kernel="precomputed", C=C, decision_function_shape="ovo") with every other option at its
default (tol=1e-3, shrinking=True) and records, for the Go tests:

  train_kernel  n x n kernel between training items; labels: their classes 0..classes-1
  test_kernel   m x n kernel between test items and training items
  predict       sklearn's predicted classes of the test items
  decision      m x pairs decision values, pairs (0,1), (0,2), ..., (1,2), ... as libsvm orders
                them, positive for the pair's first class (libsvm's sign). sklearn flips the
                sign for two classes (its decision_function is positive for classes_[1]), so
                this script flips it back there; dual_coef_ and intercept_ likewise.
  machines      per pair: the training indices with a nonzero coefficient (ascending), their
                coefficients alpha_i*y_i (y = +1 for the first class) and the bias (-rho),
                decoded from dual_coef_ / support_ / n_support_ / intercept_ (libsvm layout)
  support       sklearn's support_, sorted
  min_eigenvalue the smallest eigenvalue of train_kernel (negative: the kernel is indefinite)

Kernels are rounded to 6 decimals before training so that the JSON text holds exactly the
matrices sklearn saw. The "points" case is larger and stores, instead of kernels, the points
(rounded to 6 decimals) and gamma of an RBF kernel exp(-gamma * |x - x'|^2), which the Go test
recomputes with its own exp: its kernel may differ from sklearn's in the last bit.
"""

import json
import os

import numpy as np
import sklearn
from sklearn.svm import SVC


def blobs(rng, sizes, dim, spread):
    """Gaussian blobs, one per class, centres on a circle of radius 2."""
    k = len(sizes)
    xs, ys = [], []
    for c, size in enumerate(sizes):
        angle = 2 * np.pi * c / k
        centre = np.zeros(dim)
        centre[0], centre[1] = 2 * np.cos(angle), 2 * np.sin(angle)
        xs.append(centre + spread * rng.standard_normal((size, dim)))
        ys.append(np.full(size, c))
    return np.vstack(xs), np.concatenate(ys)


def sqdist(a, b):
    return ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)


def rbf_case(rng, sizes, test_sizes, dim, spread, gamma):
    xtr, ytr = blobs(rng, sizes, dim, spread)
    xte, _ = blobs(rng, test_sizes, dim, spread)
    return np.exp(-gamma * sqdist(xtr, xtr)), ytr, np.exp(-gamma * sqdist(xte, xtr))


def hausdorff(p, q):
    m = np.sqrt(sqdist(p, q))
    return max(m.min(1).max(), m.min(0).max())


def clouds(rng, sizes, points):
    """Each item is a cloud of 2-D points around its class's centre."""
    items, ys = [], []
    for c, size in enumerate(sizes):
        angle = 2 * np.pi * c / len(sizes)
        centre = np.array([np.cos(angle), np.sin(angle)])
        for _ in range(size):
            shift = 0.6 * rng.standard_normal(2)
            items.append(centre + shift + 0.5 * rng.standard_normal((points, 2)))
            ys.append(c)
    return items, np.array(ys)


def nonpsd_case(rng, sizes, test_sizes, gamma):
    """exp(-gamma * D**2) for Hausdorff distances D between point clouds: D is a metric but
    not Euclidean, so the kernel is indefinite, like one built on Gromov-Wasserstein
    distances."""
    tr, ytr = clouds(rng, sizes, 6)
    te, _ = clouds(rng, test_sizes, 6)
    dtr = np.array([[hausdorff(a, b) for b in tr] for a in tr])
    dte = np.array([[hausdorff(a, b) for b in tr] for a in te])
    return np.exp(-gamma * dtr**2), ytr, np.exp(-gamma * dte**2)


def machines(clf, classes):
    """Per-pair support and coefficients from libsvm's packed dual_coef_ layout: for pair
    (i, j) the coefficients of class i's support vectors are in row j-1, those of class j's
    in row i."""
    dual = clf.dual_coef_.copy()
    inter = clf.intercept_.copy()
    if classes == 2:
        dual, inter = -dual, -inter
    nsv = clf.n_support_
    start = np.concatenate([[0], np.cumsum(nsv)])
    out, p = [], 0
    for i in range(classes):
        for j in range(i + 1, classes):
            idx = list(clf.support_[start[i]:start[i + 1]]) + list(
                clf.support_[start[j]:start[j + 1]])
            coef = list(dual[j - 1, start[i]:start[i + 1]]) + list(
                dual[i, start[j]:start[j + 1]])
            pairs = sorted((int(s), float(c)) for s, c in zip(idx, coef) if c != 0)
            out.append({"a": i, "b": j, "support": [s for s, _ in pairs],
                        "coef": [c for _, c in pairs], "bias": float(inter[p])})
            p += 1
    return out


def case(name, c, ktr, ytr, kte, rounded=True):
    if rounded:
        ktr, kte = np.round(ktr, 6), np.round(kte, 6)
        ktr = (ktr + ktr.T) / 2  # exactly symmetric after rounding
    classes = int(ytr.max()) + 1
    clf = SVC(kernel="precomputed", C=c, decision_function_shape="ovo").fit(ktr, ytr)
    dec = clf.decision_function(kte)
    if classes == 2:
        dec = -dec[:, None]
    return {
        "name": name,
        "C": c,
        "classes": classes,
        "train_kernel": ktr.tolist(),
        "labels": ytr.tolist(),
        "test_kernel": kte.tolist(),
        "predict": clf.predict(kte).tolist(),
        "decision": dec.tolist(),
        "machines": machines(clf, classes),
        "support": sorted(int(s) for s in clf.support_),
        "min_eigenvalue": float(np.linalg.eigvalsh(ktr).min()),
    }


def points_case(rng, name, c, gamma, sizes, test_sizes, spread):
    xtr, ytr = blobs(rng, sizes, 2, spread)
    xte, _ = blobs(rng, test_sizes, 2, spread)
    xtr, xte = np.round(xtr, 6), np.round(xte, 6)
    ktr, kte = np.exp(-gamma * sqdist(xtr, xtr)), np.exp(-gamma * sqdist(xte, xtr))
    out = case(name, c, ktr, ytr, kte, rounded=False)
    del out["train_kernel"], out["test_kernel"]
    out.update(gamma=gamma, train_points=xtr.tolist(), test_points=xte.tolist())
    return out


def main():
    rng = np.random.default_rng(20240611)
    cases = []
    k = rbf_case(rng, [20, 20], [8, 8], 2, 1.2, 0.5)
    cases.append(case("binary_rbf_C1", 1.0, *k))
    k = rbf_case(rng, [25, 15], [8, 8], 3, 1.5, 0.3)
    cases.append(case("binary_rbf_C100", 100.0, *k))
    k = rbf_case(rng, [15, 15, 15], [5, 5, 5], 2, 1.0, 0.5)
    cases.append(case("three_rbf_C0.1", 0.1, *k))
    k = rbf_case(rng, [20, 20, 20, 20], [5, 5, 5, 5], 2, 1.3, 1.0)
    cases.append(case("four_rbf_C100", 100.0, *k))
    k = nonpsd_case(rng, [20, 20, 20], [7, 7, 7], 0.5)
    cases.append(case("nonpsd_hausdorff_C1", 1.0, *k))
    cases.append(case("nonpsd_hausdorff_C100", 100.0, *k))
    k = nonpsd_case(rng, [20, 20], [8, 8], 1.0)
    cases.append(case("binary_nonpsd_C10", 10.0, *k))
    k = rbf_case(rng, [40, 8, 3], [6, 6, 6], 2, 1.2, 0.5)
    cases.append(case("unbalanced_rbf_C1", 1.0, *k))
    cases.append(points_case(rng, "points_rbf_C10", 10.0, 2.0, [200, 200, 200], [20, 20, 20],
                             1.2))
    for cs in cases:
        if cs["name"].startswith(("nonpsd", "binary_nonpsd")):
            assert cs["min_eigenvalue"] < -1e-3, (cs["name"], cs["min_eigenvalue"])
    out = {
        "generator": "make_fixtures.py",
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sklearn_svc.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    for cs in cases:
        print(cs["name"], "n =", len(cs["labels"]), "nSV =", len(cs["support"]),
              "min eig = %.4g" % cs["min_eigenvalue"])


if __name__ == "__main__":
    main()
