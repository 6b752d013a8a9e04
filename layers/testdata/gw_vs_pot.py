#!/usr/bin/env python3
"""Runs `gwf gw` on the pairs of cg_pot.json (made by cg_fixtures.py with POT's CG) with each
solver and reports, per solver, the objective's ratio to POT's, the marginal error, the
relative column error max_j |col_j - mu_j| / mu_j, and the time per call (process included).

    go build -o /tmp/gwf ./cmd/gwf && python3 layers/testdata/gw_vs_pot.py /tmp/gwf
"""
import json, os, subprocess, sys, statistics, tempfile, time
import numpy as np
here = os.path.dirname(os.path.abspath(__file__))
d = json.load(open(os.path.join(here, 'cg_pot.json')))
gwf = sys.argv[1]
tmp = tempfile.mkdtemp()
A, B = os.path.join(tmp, 'a.json'), os.path.join(tmp, 'b.json')
def write(path, n, edges, f):
    a = np.zeros((n, n))
    for i, j, w in edges:
        a[int(i), int(j)] = a[int(j), int(i)] = w
    g = {"adjacency": a.tolist()}
    if f is not None: g["features"] = f
    json.dump(g, open(path, "w"))
rows = []
for p in d["pairs"]:
    write(A, p["n1"], p["edges1"], p.get("f1"))
    write(B, p["n2"], p["edges2"], p.get("f2"))
    w = (1 - p["alpha"]) / p["alpha"]
    want = p["objective"] / p["alpha"]
    res = {}
    for name, args in [("cg", ["--solver", "cg"]), ("ppa", ["--solver", "ppa"]), ("badmm", ["--solver", "badmm"]),
                       ("ppa_tol", ["--solver", "ppa", "--tol", "1e-9"]), ("ppa_tol_noround", ["--solver", "ppa", "--tol", "1e-9", "--round=false"]),
                       ("badmm_tol", ["--solver", "badmm", "--tol", "1e-9"])]:
        t0 = time.perf_counter()
        out = subprocess.run([gwf, "gw", A, B, "--json", "--feature-weight", str(w)] + args, capture_output=True, text=True, check=True).stdout
        r = json.loads(out); r["secs"] = time.perf_counter() - t0
        T = np.array(r["transport"])
        r["colrel"] = float(np.max(np.abs(T.sum(0) - 1/p["n2"]) * p["n2"]))
        res[name] = r
    rows.append((p["name"], want, res))
    print(p["name"], "POT %.5f" % want, " ".join("%s: obj %.5f ratio %.4f merr %.1e caps %d %.2fs" % (k, r["objective"], r["objective"]/want if want > 1e-12 else float('nan'), r["marginal_error"], r["sweep_cap_hits"], r["secs"]) for k, r in res.items()), flush=True)
def summary(k):
    ratios = [r[k]["objective"]/w for n, w, r in rows if not n.startswith("self")]
    merr = [r[k]["marginal_error"] for n, w, r in rows]
    colrel = [r[k]["colrel"] for n, w, r in rows]
    print(f"{k}: ratio to POT CG median {statistics.median(ratios):.4f} min {min(ratios):.4f} max {max(ratios):.4f}; marginal error median {statistics.median(merr):.2e} max {max(merr):.2e}; relative column error median {statistics.median(colrel):.3f} max {max(colrel):.3f}; time median {statistics.median([r[k]['secs'] for n,w,r in rows]):.2f}s")
for k in rows[0][2]: summary(k)
self = [r for n, w, r in rows if n.startswith("self")][0]
print("self: POT", [w for n, w, r in rows if n.startswith("self")][0], {k: v["objective"] for k, v in self.items()})
