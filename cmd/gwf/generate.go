package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/synthetic"
	"github.com/gwf-graphs/gwf/internal/cli"
)

// generateFlags are the flags of "gwf generate".
type generateFlags struct {
	graphs    int
	output    string
	name      string
	seed      uint64
	nodes     string
	classes   int
	pIn, pOut float64
	gzip      bool
}

func newGenerateCmd(a *app) *cobra.Command {
	var f generateFlags
	cmd := &cobra.Command{
		Use:   "generate sbm|ba --count N --output DIR",
		Short: "Write a synthetic corpus of random graphs in TU format",
		Long: `generate writes N random, labelled graphs as a TU dataset in the new folder DIR, readable with
--tu DIR by every command. Graphs are made and written one at a time, so memory does not depend
on N; the folder appears only once complete. The same seed gives the same files.

sbm: stochastic block models; a graph of class c has c+1 blocks of nearly equal size, linked
within a block with probability --p-in and across blocks with --p-out.
ba: Barabási–Albert graphs; a graph of class c attaches each new node to c+1 existing ones.

Graph i (0-based) has class i mod --classes and a node count uniform in --nodes MIN:MAX.`,
		Example: `  gwf generate sbm --count 100000 --output /tmp/SBM100K
  gwf generate ba --count 5000 --classes 3 --nodes 20:60 --seed 7 --gzip --output ./BA`,
		Annotations: cli.Interruptible("nothing written"),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cli.Usagef("give one model: gwf generate sbm|ba --count N --output DIR")
			}
			return nil
		},
		ValidArgs: []string{string(synthetic.SBM), string(synthetic.BA)},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd, a, &f, args[0])
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&f.graphs, "count", 1000, "number of graphs")
	cli.RenamedFlag(fs, "count", "graphs") // --graphs is a folder in the data commands
	outputFlag(fs, &f.output, "", "folder to create (required; must not exist)")
	fs.StringVar(&f.name, "name", "", "dataset name, the NAME of NAME_A.txt (default: the folder's name)")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed")
	fs.StringVar(&f.nodes, "nodes", "10:30", "node count range MIN:MAX (or one number)")
	fs.IntVar(&f.classes, "classes", 2, "number of classes")
	fs.Float64Var(&f.pIn, "p-in", 0.5, "sbm: link probability within a block")
	fs.Float64Var(&f.pOut, "p-out", 0.05, "sbm: link probability across blocks")
	fs.BoolVar(&f.gzip, "gzip", false, "write NAME_*.txt.gz files")
	return cmd
}

func runGenerate(cmd *cobra.Command, a *app, f *generateFlags, model string) error {
	if f.output == "" {
		return cli.Usagef("--output DIR is required")
	}
	lo, hi, err := parseRange(f.nodes)
	if err != nil {
		return cli.Usagef("--nodes: %w", err)
	}
	s := synthetic.Spec{Model: synthetic.Model(strings.ToLower(model)), Graphs: f.graphs, MinNodes: lo, MaxNodes: hi,
		Classes: f.classes, PIn: f.pIn, POut: f.pOut, Seed: f.seed}
	if err := s.Validate(); err != nil {
		return cli.Usage(err)
	}
	name := f.name
	if name == "" {
		name = filepath.Base(filepath.Clean(f.output))
	}
	err = synthetic.Write(cmd.Context(), f.output, name, s, graphs.TUWriteOptions{Gzip: f.gzip}, func(done int) {
		a.Log.Infof("generated %d/%d graphs", done, s.Graphs)
	})
	if err != nil {
		return err
	}
	a.Log.Infof("wrote %s (TU dataset %s): read it with --tu %s", f.output, name, f.output)
	return nil
}

// parseRange parses "MIN:MAX" or a single number.
func parseRange(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not MIN:MAX or a number", s)
	}
	return lo, hi, nil
}
