"""Which candidates vote: the default (the best third, at most ten) against other rules.

usage: python3 vote_rules.py DIR LABELS [ASSIGNMENTS]

DIR holds the matrices of all graphs that `gwf classify --output-dir DIR` kept
(fgw-*-N-graphs-*.npy, every candidate computed in full: N <= 300); LABELS is a TU
graph-labels file (one integer a line, .gz or not) or a labels.csv of "file,label" rows (graphs
in file-name order, as gwf reads a folder). Nested 10-fold cross-validation (fold seeds 1-3,
scikit-learn's StratifiedKFold, not gwf's folds) with scikit-learn's SVC on the kernel
exp(-gamma d / median): each candidate's gamma and C chosen by inner 5-fold cross-validation,
repeated with ASSIGNMENTS (default 3) inner fold assignments. Label-free candidates
(-nofeatures-) carry gwf's handicap (one standard error) where others exist. Rules: the single
best; the best third, at most ten (gwf's default); the best third; every candidate within one
standard error of the best. A tie goes to the best voter's class. Prints the pooled accuracy of
each rule for each inner assignment, and with the assignments averaged (repeated CV).
"""
import csv, glob, gzip, os, sys
import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

d, lab = sys.argv[1], sys.argv[2]
R = int(sys.argv[3]) if len(sys.argv) > 3 else 3
if lab.endswith('.csv'):
    rows = sorted(tuple(r[:2]) for r in list(csv.reader(open(lab)))[1:])
    classes = sorted(set(r[1] for r in rows))
    y = np.array([classes.index(r[1]) for r in rows])
else:
    text = (gzip.open(lab, 'rt') if lab.endswith('.gz') else open(lab)).read()
    _, y = np.unique([int(v) for v in text.split()], return_inverse=True)
files = sorted(f for f in glob.glob(d + '/fgw-*-%d-graphs-*.npy' % len(y)) if '.partial' not in f)
free = np.array(['-nofeatures-' in os.path.basename(f) for f in files])
mats = [(lambda m: (m + m.T) / 2)(np.load(f)) for f in files]
G = [0.01, 0.1, 1, 10, 100]
Cs = [0.01, 0.1, 1, 10, 100, 1000]
print(len(mats), 'candidates,', len(y), 'graphs', file=sys.stderr)

def inner_and_outer(D, tr, te, seed):
    """Inner accuracies [assignment, gamma, C] and test predictions [gamma, C, graph]."""
    med = np.median(D[np.ix_(tr, tr)][np.triu_indices(len(tr), 1)])
    acc = np.zeros((R, len(G), len(Cs)))
    pred = np.zeros((len(G), len(Cs), len(te)), dtype=int)
    for gi, g in enumerate(G):
        K = np.exp(-g / med * D)
        for ci, c in enumerate(Cs):
            for r in range(R):
                right = 0
                for a, b in StratifiedKFold(5, shuffle=True, random_state=100 * seed + r).split(tr, y[tr]):
                    m = SVC(C=c, kernel='precomputed').fit(K[np.ix_(tr[a], tr[a])], y[tr[a]])
                    right += (m.predict(K[np.ix_(tr[b], tr[a])]) == y[tr[b]]).sum()
                acc[r, gi, ci] = right / len(tr)
            m = SVC(C=c, kernel='precomputed').fit(K[np.ix_(tr, tr)], y[tr])
            pred[gi, ci] = m.predict(K[np.ix_(te, tr)])
    return acc, pred

folds = []
for seed in (1, 2, 3):
    for tr, te in StratifiedKFold(10, shuffle=True, random_state=seed).split(np.zeros(len(y)), y):
        res = [inner_and_outer(D, tr, te, seed) for D in mats]
        folds.append((len(tr), np.array([a for a, _ in res]), np.array([p for _, p in res]), y[te]))

def vote(preds):
    out = []
    for j in range(preds.shape[1]):
        vals, cnt = np.unique(preds[:, j], return_counts=True)
        top = vals[cnt == cnt.max()]
        out.append(next(v for v in preds[:, j] if v in top))
    return np.array(out)

def score(rule, assignments):
    right = total = 0
    for ntr, acc, pred, yte in folds:
        a = acc[:, assignments].mean(axis=1).reshape(len(mats), -1)
        best, arg = a.max(axis=1), a.argmax(axis=1)
        top = best[~free].max() if (~free).any() else best.max()
        se = np.sqrt(top * (1 - top) / ntr)
        rank = best - np.where(free & (~free).any(), se, 0)
        order = np.argsort(-rank, kind='stable')
        third = max(1, (len(mats) + 2) // 3)
        voters = {'single': order[:1], 'default': order[:min(10, third)], 'third': order[:third],
                  'within-se': [c for c in order if rank[c] >= rank[order[0]] - se]}[rule]
        p = np.array([pred[c].reshape(-1, len(yte))[arg[c]] for c in voters])
        right += (vote(p) == yte).sum()
        total += len(yte)
    return 100 * right / total

print('| rule | ' + ' | '.join('assignment %d' % (r + 1) for r in range(R)) + ' | averaged |')
print('|---' * (R + 2) + '|')
for rule in ('single', 'default', 'third', 'within-se'):
    cells = [score(rule, [r]) for r in range(R)] + [score(rule, list(range(R)))]
    print('| %s | ' % rule + ' | '.join('%.1f' % c for c in cells) + ' |')
