"""Logistic regression (scikit-learn, C by 5-fold CV) on the label-free λ of gwf fit/embed, the
baseline the issue compares classify with; run in the folder of emb.csv, emb_unseen.csv and
pred05.csv (classify --labeled-fraction 0.5 --predictions pred05.csv). Cross-check only."""
import csv, numpy as np
from sklearn.linear_model import LogisticRegressionCV
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
def load(p):
    r = list(csv.DictReader(open(p)))
    X = np.array([[float(v) for k, v in row.items() if k.startswith('lambda')] for row in r])
    return [row['graph'] for row in r], [row['label'] for row in r], X
names, y, X = load('emb.csv')
pred = {row['graph']: row['labelled_in_training'] == 'true' for row in csv.DictReader(open('pred05.csv'))}
tr = np.array([pred[n] for n in names]); y = np.array(y)
clf = make_pipeline(StandardScaler(), LogisticRegressionCV(Cs=10, cv=5, max_iter=5000)).fit(X[tr], y[tr])
print("LR on label-free lambda, labelled half -> unlabelled half: %.3f" % (clf.predict(X[~tr]) == y[~tr]).mean())
clf = make_pipeline(StandardScaler(), LogisticRegressionCV(Cs=10, cv=5, max_iter=5000)).fit(X, y)
n2, y2, X2 = load('emb_unseen.csv')
print("LR trained on all 150 -> 45 unseen (transform-mode embeddings): %.3f" % (clf.predict(X2) == np.array(y2)).mean())
