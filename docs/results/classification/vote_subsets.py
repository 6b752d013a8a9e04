"""A vote of the best candidates against the single best, on a screening subset.

usage: python3 vote_subsets.py DIR LABELS.gz INDICES

DIR holds the 300-graph screening matrices that `gwf classify --output-dir DIR` kept
(fgw-*-300-graphs-*.npy), LABELS.gz is the TU graph-labels file, INDICES the graphs of the
subset (screen-subset-N.txt: rand.NewPCG(1, 0x5c4ee7).Perm(N)[:300], sorted, as fgwsvm draws
it for fold seed 1). Nested 10-fold cross-validation with scikit-learn's SVC on the kernel
exp(-gamma d / median), each candidate's gamma and C chosen by inner 5-fold cross-validation,
fold seeds 1-3 pooled; the best k candidates vote, a tie going to the best voter's class.
"""
import glob, os, sys, gzip, numpy as np
from sklearn.svm import SVC
from sklearn.model_selection import StratifiedKFold
d, labelsgz, idxf = sys.argv[1], sys.argv[2], sys.argv[3]
yall = np.array([int(l) for l in gzip.open(labelsgz,'rt').read().split()])
idx = np.array([int(l) for l in open(idxf).read().split()])
y = yall[idx]; _, y = np.unique(y, return_inverse=True)
files = sorted(glob.glob(d+'/fgw-*-300-graphs-*.npy'), key=os.path.getmtime)
# keep one file per candidate name (latest)
byname = {}
for f in files: byname[os.path.basename(f).rsplit('-graphs-',1)[0]] = f
mats = [np.load(f) for f in byname.values()]
print(len(mats), 'screening matrices', len(y), 'graphs', np.bincount(y))
G=[0.01,0.1,1,10,100]; C=[0.01,0.1,1,10,100,1000]
ks=[1,3,(len(mats)+2)//3, min(10,len(mats)), len(mats)]
ks=sorted(set(ks))
res_all={k:[] for k in ks}
for seed in [1,2,3]:
    out={k:[] for k in ks}
    for tr,te in StratifiedKFold(10,shuffle=True,random_state=seed).split(y,y):
        inner=list(StratifiedKFold(5,shuffle=True,random_state=1).split(tr,y[tr]))
        best=[]
        for ci,D in enumerate(mats):
            Dt=D[np.ix_(tr,tr)]; med=np.median(Dt[np.triu_indices(len(tr),1)]) or 1
            b=(-1,)
            for g in G:
                K=np.exp(-g*Dt/med)
                for c in C:
                    acc=np.mean([(SVC(kernel='precomputed',C=c).fit(K[np.ix_(a,a)],y[tr][a]).predict(K[np.ix_(bb,a)])==y[tr][bb]).mean() for a,bb in inner])
                    if acc>b[0]: b=(acc,ci,g,c,med)
            best.append(b)
        best.sort(key=lambda r:-r[0])
        preds=[]
        for acc,ci,g,c,med in best:
            D=mats[ci]
            m=SVC(kernel='precomputed',C=c).fit(np.exp(-g*D[np.ix_(tr,tr)]/med),y[tr])
            preds.append(m.predict(np.exp(-g*D[np.ix_(te,tr)]/med)))
        for k in ks:
            P=np.array(preds[:k]); votes=np.zeros((len(te),y.max()+1))
            for p in P: votes[np.arange(len(te)),p]+=1
            # tie -> best voter's class among tied
            pred=[]
            for i in range(len(te)):
                top=votes[i].max()
                pred.append(next(p[i] for p in P if votes[i][p[i]]==top))
            out[k].append((np.array(pred)==y[te]).mean())
    for k in ks: res_all[k]+=out[k]
    print('seed',seed,' '.join('v%d %.3f'%(k,np.mean(v)) for k,v in out.items()), flush=True)
print('pooled',' '.join('v%d %.3f'%(k,np.mean(v)) for k,v in res_all.items()))
