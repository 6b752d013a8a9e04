#!/usr/bin/env python3
# A probe (not part of gwf): copies a TU dataset whose node labels become the pair (node label,
# sorted labels of the edges at the node), to measure what edge labels would add.
# Usage: edge_labels_in_node_labels.py SRC_DIR NAME DST_DIR

import gzip, os, sys, shutil
src, name, dst = sys.argv[1], sys.argv[2], sys.argv[3]
def op(p):
    return gzip.open(p, 'rt') if p.endswith('.gz') else open(p)
def path(kind):
    for ext in ('.txt.gz', '.txt'):
        p = os.path.join(src, f'{name}_{kind}{ext}')
        if os.path.exists(p): return p
A = [tuple(int(x) for x in l.split(',')) for l in op(path('A')) if l.strip()]
E = [int(l) for l in op(path('edge_labels')) if l.strip()]
N = [int(l) for l in op(path('node_labels')) if l.strip()]
inc = [[] for _ in N]
for (u, v), e in zip(A, E):
    inc[u-1].append(e)
keys = {}
out = []
for i, l in enumerate(N):
    k = (l, tuple(sorted(inc[i])))
    out.append(keys.setdefault(k, len(keys)))
os.makedirs(dst, exist_ok=True)
for kind in ('A', 'graph_indicator', 'graph_labels'):
    with op(path(kind)) as f, open(os.path.join(dst, f'{name}_{kind}.txt'), 'w') as g:
        g.write(f.read())
with open(os.path.join(dst, f'{name}_node_labels.txt'), 'w') as g:
    g.write('\n'.join(map(str, out)) + '\n')
print(name, len(N), 'nodes', len(set(N)), 'labels ->', len(keys))
