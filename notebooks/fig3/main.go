// Command fig3 reproduces Figure 3 of the paper (nbkit.Fig3, which the notebook fig3.ipynb runs
// too): the GW discrepancy layer by layer of the PPA and BADMM modules on pairs of
// Barabási–Albert graphs, directed and undirected. It writes fig3-undirected.png,
// fig3-directed.png, fig3.csv and report.md to --output-dir.
//
//	go run ./notebooks/fig3 --output-dir results/fig3              # the paper's size: 100 pairs, 100 nodes
//	go run ./notebooks/fig3 --output-dir /tmp/fig3 --pairs 4 --nodes 20 --layers 10   # a quick look
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gwf-graphs/gwf/notebooks/nbkit"
)

func main() {
	c, out := parse(os.Args[1:])
	if err := run(context.Background(), c, out, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fig3:", err)
		os.Exit(1)
	}
}

// parse reads the command line: the configuration and the output folder.
func parse(args []string) (nbkit.Fig3Config, string) {
	c, out := nbkit.Fig3Paper(), ""
	fs := nbkit.NewFlagSet("fig3")
	fs.IntVar(&c.Pairs, "pairs", c.Pairs, "graph pairs per setting")
	fs.IntVar(&c.Nodes, "nodes", c.Nodes, "nodes per graph")
	fs.IntVar(&c.Edges, "edges", c.Edges, "edges added with each new node (Barabási–Albert m)")
	fs.IntVar(&c.Layers, "layers", c.Layers, "solver layers to trace")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the graphs")
	nbkit.OutputDir(fs, &out, "results/fig3")
	fs.Parse(args) // exits on an error
	return c, out
}

func run(ctx context.Context, c nbkit.Fig3Config, out string, log io.Writer) error {
	f, err := nbkit.NewFolder(out, "Figure 3: PPA vs BADMM, GW discrepancy per layer",
		fmt.Sprintf("go run ./notebooks/fig3 --output-dir %s --pairs %d --nodes %d --edges %d --layers %d --seed %d", out, c.Pairs, c.Nodes, c.Edges, c.Layers, c.Seed), log)
	if err != nil {
		return err
	}
	if err := nbkit.Fig3(ctx, c, f); err != nil {
		return err
	}
	return f.Save()
}
