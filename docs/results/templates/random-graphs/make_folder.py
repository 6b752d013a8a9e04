import networkx as nx, random, os, sys
random.seed(7)
out=sys.argv[1]; os.makedirs(out, exist_ok=True)
rows=["file,label"]
for i in range(120):
    c=i%4; n=random.randint(20,40)
    if c==0: g=nx.barabasi_albert_graph(n,2,seed=i)
    elif c==1: g=nx.gnp_random_graph(n,0.15,seed=i)
    elif c==2: g=nx.watts_strogatz_graph(n,4,0.1,seed=i)
    else: g=nx.powerlaw_cluster_graph(n,2,0.5,seed=i)
    for v in g.nodes: g.nodes[v]["noise"]=random.random()
    f=f"g{i:03d}.graphml"; nx.write_graphml(g, os.path.join(out,f)); rows.append(f"{f},{['ba','er','ws','plc'][c]}")
open(os.path.join(out,"labels.csv"),"w").write("\n".join(rows)+"\n")
