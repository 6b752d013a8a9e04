package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/internal/matfile"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training/trainflags"
)

// gwFlags are the flags of "gwf gw".
type gwFlags struct {
	trainflags.Solver
	featureWeight trainflags.FeatureWeight
	maxSweeps     int
	round         bool
	json          bool
	format        string
	directed      bool
	ids           string
	limits        dataflags.LimitFlags
	anchors       int
	init          string
	nodes         []int // node counts of A and B (edge lists; 0: from the ids)
}

func newGWCmd(a *app) *cobra.Command {
	var f gwFlags
	p, cg := layers.DefaultPPA(), layers.DefaultCG()
	cmd := &cobra.Command{
		Use:   "gw A B",
		Short: "Gromov-Wasserstein discrepancy between two graphs",
		Long: `gw reads two graphs and computes their (fused) Gromov-Wasserstein discrepancy: the transport
T between their nodes and the objective <L(T), T>, by default with conditional gradient (cg:
Frank-Wolfe with exact optimal transport, as POT's gromov_wasserstein, from several starts), or
with an unrolled GWD module of the paper (--solver ppa or badmm: what GWF models train with).

Graph files are read by their extension (--input-format to say otherwise): JSON (gwf's or
networkx node-link), GraphML, GML, GEXF, graph6, adjacency lists, NumPy adjacency matrices,
and edge lists for any other name ("u v [weight]" lines, node ids 0-based unless --ids says
otherwise; --nodes NA,NB gives their node counts, which keeps nodes in no edge). Node features are used when both
graphs have them (fused GW, weighted by --feature-weight); features on one graph only are an
error.

cg starts from the product coupling μ_A·μ_Bᵀ, as POT does, or from the coupling in --init
(POT's G0: a .npy, .npz or .csv matrix, rows the nodes of A), then from --anchors more starts
(greedy matchings of the nodes, seeded at one node of the smaller graph), and keeps the lowest
objective; each start runs until the objective changes by less than 1e-9 (--tol), at most
--layers iterations. On graphs with symmetries (cycles, grids, complete bipartite graphs) the
product coupling is a stationary point far from the optimum; the anchored starts find the
match there (0 for a relabelled copy). --anchors 0 is POT's CG.

The paper's modules also start from the product coupling and stay there on such graphs (a
6-cycle against itself: 0.444 with ppa, 0 with cg), which is why cg is the default. --solver
ppa is the paper's PPA (γ = 0.01, M = 50 layers, 5 Sinkhorn sweeps per layer), --solver badmm
its BADMM (γ = 1 unless --gamma is given); at these settings the transport's columns do not
sum to μ_B exactly (the output reports the marginal error). --tol runs PPA's Sinkhorn sweeps
until the error is below it (BADMM: sweeps on its final transport), at most --max-sweeps per
layer, and then rounds T onto the feasible set (--round=false: not); --round alone rounds the
paper's result.

The plain output is the objective, the marginal error and the sizes; --json adds the transport
matrix (rows: the nodes of A, columns: the nodes of B).`,
		Example: `  gwf gw a.json b.json
  gwf gw a.json b.json --json > result.json
  gwf gw a.txt b.txt --input-format edgelist --directed --solver badmm
  gwf gw a.edges b.edges --ids one
  gwf gw a.json b.json --solver ppa                  # the paper's GWD module
  gwf gw a.json b.json --solver ppa --gamma 0.05 --layers 100 --tol 1e-9
  gwf gw a.graphml b.graphml --init start.npy --anchors 0   # POT's CG from POT's G0`,
		Args: cli.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGW(cmd, a, &f, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	f.Solver.Register(fs, "converged mode (ppa, badmm): Sinkhorn sweeps until the marginal error is below this; cg: relative objective change at which to stop")
	f.Name, fs.Lookup("solver").DefValue = cg.Name(), cg.Name() // see the help: the paper's modules stay at symmetric starts
	f.featureWeight.Register(fs, p.Weight, false, `weight of the node-feature cost (when both graphs have features), or "auto": the weight that gives the feature and structure costs the same mean over the two graphs`)
	fs.IntVar(&f.maxSweeps, "max-sweeps", layers.DefaultMaxSweeps, "with --tol: most sweeps per layer (the output counts the layers that hit it)")
	fs.BoolVar(&f.round, "round", false, "project the final transport onto the feasible set (default true with --tol, for ppa and badmm)")
	jsonFlag(fs, &f.json, "the objective and the transport")
	fs.StringVar(&f.format, "input-format", "", `input format: json (gwf's JSON or networkx node-link JSON), graphml, gml, gexf, edgelist, adjlist, graph6 (.g6) or matrix (.npy, .npz); a .gz file is read decompressed (default: by the extension, of a .gz file the one before it, else edgelist)`)
	cli.RenamedFlag(fs, "input-format", "format") // --format is an output format in embed and cluster
	fs.BoolVar(&f.directed, "directed", false, "edge lists: read edges as directed (default: symmetric)")
	fs.IntSliceVar(&f.nodes, "nodes", []int{0, 0}, "edge lists: the node counts of A and B (NA,NB; 0: the largest id), to keep nodes in no edge")
	fs.StringVar(&f.ids, "ids", "zero", "edge lists: node ids are zero (0..N−1: node i is row i), one (1..N) or names (any tokens: ordered by number when all are integers, else by first appearance)")
	fs.IntVar(&f.anchors, "anchors", cg.Anchors, "cg: anchored starts after the first (0: the first start only, as POT)")
	fs.StringVar(&f.init, "init", "", "cg: the first start, a coupling of the two graphs' node masses (.npy, .npz or .csv; rows: nodes of A), instead of the product coupling")
	f.limits.Register(fs, "refuse graphs whose dense matrices need more GiB than this")
	return cmd
}

// options turns the flags into solver options: the named solver's defaults, overridden by
// the flags given; flags without effect are warned of. Its errors are usage errors.
func (f *gwFlags) options(cmd *cobra.Command, log logrus.FieldLogger) (layers.SolverOptions, error) {
	fs := cmd.Flags()
	o, warnings, err := f.Solver.Options(fs)
	if err != nil {
		return o, cli.Usagef("--solver: %w", err)
	}
	o.FeatureWeight, o.MaxSweeps = f.featureWeight.Weight, f.maxSweeps
	if o.Name == layers.SolverCG && !cli.Changed(fs, "solver") {
		if name := cli.FirstChanged(fs, "gamma", "inner", "start-jitter"); name != "" {
			return o, cli.Usagef("--%s is a setting of --solver ppa or badmm, and gw's default solver is cg: add --solver ppa (the paper's GWD module)", name)
		}
	}
	if o.Name != layers.SolverCG {
		if name := cli.FirstChanged(fs, "anchors", "init"); name != "" {
			return o, cli.Usagef("--%s is a setting of --solver cg", name)
		}
	} else {
		o.Anchors = f.anchors
	}
	o.Round = f.round || (f.Tol > 0 && !cli.Changed(fs, "round"))
	if o.Name == layers.SolverCG {
		o.Round = false // every CG iterate is feasible
	}
	logWarnings(log, warnings)
	return o, nil
}

// build checks the flags and returns the solver's options and the solver; its errors are
// usage errors.
func (f *gwFlags) build(cmd *cobra.Command, log logrus.FieldLogger) (layers.SolverOptions, layers.Solver, error) {
	o, err := f.options(cmd, log)
	if err != nil {
		return o, nil, err
	}
	s, err := layers.NewSolver(o)
	if err != nil {
		return o, nil, cli.Usage(err)
	}
	if err := graphs.CheckFormat(f.format); err != nil {
		return o, nil, cli.Usagef("--input-format: %w", err)
	}
	ids, err := graphs.ParseEdgeIDs(f.ids)
	if err != nil {
		return o, nil, cli.Usagef("--ids: %w", err)
	}
	if err := f.limits.Check(); err != nil {
		return o, nil, cli.Usage(err)
	}
	switch {
	case len(f.nodes) != 2 || f.nodes[0] < 0 || f.nodes[1] < 0:
		return o, nil, cli.Usagef("--nodes %v: give the node counts of A and B as NA,NB (0: from the ids)", f.nodes)
	case ids == graphs.NodeNames && (f.nodes[0] != 0 || f.nodes[1] != 0):
		return o, nil, cli.Usagef("--nodes needs numbered ids (--ids zero or one): a node in no edge has no name (write it on a line of its own instead)")
	}
	return o, s, nil
}

func runGW(cmd *cobra.Command, a *app, f *gwFlags, pathA, pathB string) error {
	o, s, err := f.build(cmd, a.Log)
	if err != nil {
		return err
	}
	ga, err := f.read(pathA, "A")
	if err != nil {
		return err
	}
	gb, err := f.read(pathB, "B")
	if err != nil {
		return err
	}
	switch {
	case (ga.F == nil) != (gb.F == nil):
		with, without := pathA, pathB
		if ga.F == nil {
			with, without = pathB, pathA
		}
		return fmt.Errorf("%s has node features but %s has none: give both graphs features (fused GW) or neither", with, without)
	case ga.Dim() != gb.Dim():
		return fmt.Errorf("node feature dimensions differ: %d in %s, %d in %s", ga.Dim(), pathA, gb.Dim(), pathB)
	}
	if f.featureWeight.Auto {
		var note string
		if o.FeatureWeight, note, err = f.featureWeight.Resolve(graphs.Slice([]*graphs.Graph{ga, gb})); err != nil {
			return err
		}
		a.Log.Info(note)
		if s, err = layers.NewSolver(o); err != nil {
			return cli.Usage(err)
		}
	}
	if f.directed && strings.EqualFold(f.format, "json") {
		a.Log.Warn("--directed has no effect on JSON graphs (their adjacency is used as given)")
	}
	startName := ""
	if c, ok := s.(layers.CG); ok {
		startName = "the product coupling"
		if f.init != "" {
			if c.Start, err = readCoupling(f.init, ga.N(), gb.N()); err != nil {
				return err
			}
			s, startName = c, f.init
		}
	}
	start := time.Now()
	r, err := layers.Discrepancy(s, layers.Space{A: ga.A, Mu: ga.Mu, F: ga.F}, layers.Space{A: gb.A, Mu: gb.Mu, F: gb.F})
	if err != nil {
		return fmt.Errorf("gw: %w", err)
	}
	elapsed := time.Since(start)
	obj := r.Objective
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		return fmt.Errorf("gw: %w: the objective is %v", layers.ErrNumerical, obj)
	}
	if r.SweepCapHits > 0 {
		a.Log.Warnf("%d layer(s) stopped at --max-sweeps %d before reaching --tol %g", r.SweepCapHits, o.MaxSweeps, o.Tol)
	}
	rep := layers.NewReport(o, r, ga.Dim(), startName, elapsed.Seconds())
	write := rep.WriteText
	if f.json {
		write = func(w io.Writer) error { return cli.WriteJSON(w, rep) }
	}
	if err := write(cmd.OutOrStdout()); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// read loads graph which ("A" or "B") in the format of --input-format (or guessed from the
// name, edge lists when the name says nothing). Numeric node attributes are the features, as
// the JSON form's "features" are. The readers' errors name the file.
func (f *gwFlags) read(path, which string) (*graphs.Graph, error) {
	ids, _ := graphs.ParseEdgeIDs(f.ids) // checked by build
	nodes := f.nodes[0]
	if which == "B" {
		nodes = f.nodes[1]
	}
	format := f.format
	if format == "" && graphs.FileFormat(path) == "" {
		format = "edgelist"
	}
	g, err := graphs.ReadFile(path, graphs.FileOptions{Format: format, Features: graphs.FeaturesAttributes,
		EdgeList: graphs.EdgeListOptions{IDs: ids, Directed: f.directed, Nodes: nodes},
		Limits:   f.limits.Limits()})
	if errors.Is(err, graphs.ErrNoNodeZero) {
		err = fmt.Errorf("%w\n(with gwf gw: --ids one, or --ids names)", err)
	}
	if err == nil {
		err = g.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", which, err)
	}
	return g, nil
}

// readCoupling reads the --init coupling of an na×nb problem (.npy, .npz or .csv by extension).
func readCoupling(path string, na, nb int) (*mat.Dense, error) {
	if _, ok := matfile.FormatOf(path); !ok {
		return nil, cli.Usagef("--init %s: name a .npy, .npz or .csv file", path)
	}
	m, err := matfile.ReadFile(path, matfile.Limits{MaxRows: na, MaxCols: nb})
	if err != nil {
		return nil, fmt.Errorf("--init: %w (want a %d×%d coupling: rows the nodes of A)", err, na, nb)
	}
	if r, c := m.Dims(); r != na || c != nb {
		return nil, fmt.Errorf("--init %s: a %d×%d matrix, want %d×%d (rows: the %d nodes of A)", path, r, c, na, nb, na)
	}
	return m, nil
}
