package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// gwFlags are the flags of "gwf gw".
type gwFlags struct {
	solver        string
	gamma         float64
	layers        int
	inner         int
	featureWeight float64
	json          bool
	format        string
	directed      bool
	maxNodes      int
	maxMemory     float64
}

// gwResult is the --json output of "gwf gw".
type gwResult struct {
	Objective     float64     `json:"objective"`
	Transport     [][]float64 `json:"transport"`
	Solver        string      `json:"solver"`
	Gamma         float64     `json:"gamma"`
	Layers        int         `json:"layers"`
	Inner         *int        `json:"inner"` // null for badmm
	FeatureWeight float64     `json:"feature_weight"`
	Rows          string      `json:"rows"`
	Cols          string      `json:"cols"`
	NodesA        int         `json:"nodes_a"`
	NodesB        int         `json:"nodes_b"`
	FeatureDim    int         `json:"feature_dim"`
}

func newGWCmd(a *app) *cobra.Command {
	var f gwFlags
	p, b := layers.DefaultPPA(), layers.DefaultBADMM()
	cmd := &cobra.Command{
		Use:   "gw A B",
		Short: "Gromov-Wasserstein discrepancy between two graphs",
		Long: `gw reads two graphs and computes their (fused) Gromov-Wasserstein discrepancy with an
unrolled GWD module: the optimal transport T between their nodes and the objective <L(T), T>.

Graphs are JSON files (the default for names ending in .json) or edge lists (any other name, or
--format edgelist). Node features are used when both graphs have them (fused GW, weighted by
--feature-weight); giving features to only one graph is an error.

Defaults are the paper's: PPA with γ = 0.01, M = 50 layers, 5 Sinkhorn sweeps per layer; with
--solver badmm, γ = 1 unless --gamma is given.

The plain output is the objective and the sizes; --json adds the transport matrix (rows: the
nodes of A, columns: the nodes of B).`,
		Example: `  gwf gw a.json b.json
  gwf gw a.json b.json --json > result.json
  gwf gw a.txt b.txt --format edgelist --directed --solver badmm
  gwf gw a.json b.json --gamma 0.05 --layers 100`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGW(cmd, a, &f, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.solver, "solver", p.Name(), "GWD module: ppa (proximal point) or badmm (Bregman ADMM)")
	fs.Float64Var(&f.gamma, "gamma", p.Gamma, fmt.Sprintf("solver weight γ (default %g with ppa, %g with badmm)", p.Gamma, b.Gamma))
	fs.Lookup("gamma").DefValue = "0" // hides "(default 0.01)": it depends on --solver, as the usage says
	fs.IntVar(&f.layers, "layers", p.Layers, "number of layers M")
	fs.IntVar(&f.inner, "inner", p.Inner, "Sinkhorn sweeps per PPA layer (ppa only)")
	fs.Float64Var(&f.featureWeight, "feature-weight", p.Weight, "weight of the node-feature cost (when both graphs have features)")
	fs.BoolVar(&f.json, "json", false, "print a JSON object with the objective and the transport")
	fs.StringVar(&f.format, "format", "", `input format: json or edgelist (default: json for names ending in ".json", else edgelist)`)
	fs.BoolVar(&f.directed, "directed", false, "edge lists: read edges as directed (default: symmetric)")
	fs.IntVar(&f.maxNodes, "max-nodes", graphs.DefaultLimits.MaxNodes, "refuse graphs with more nodes than this")
	fs.Float64Var(&f.maxMemory, "max-memory", float64(graphs.DefaultLimits.MaxDenseBytes)/(1<<30), "refuse graphs whose dense matrices need more GiB than this")
	return cmd
}

// build checks the flags and returns the GWD module; its errors are usage errors.
func (f *gwFlags) build(cmd *cobra.Command) (layers.Solver, error) {
	fs := cmd.Flags()
	var s layers.Solver
	var err error
	switch f.solver {
	case "ppa":
		p := layers.PPA{Gamma: f.gamma, Layers: f.layers, Inner: f.inner, Weight: f.featureWeight}
		s, err = p, p.Check()
	case "badmm":
		bd := layers.BADMM{Gamma: f.gamma, Layers: f.layers, Weight: f.featureWeight}
		if !changed(fs, "gamma") {
			bd.Gamma = layers.DefaultBADMM().Gamma
		}
		s, err = bd, bd.Check()
	default:
		return nil, usagef("--solver: unknown solver %q (want ppa or badmm)", f.solver)
	}
	if err != nil {
		return nil, usageError{err}
	}
	switch strings.ToLower(f.format) {
	case "", "json", "edgelist":
	default:
		return nil, usagef("--format: unknown format %q (want json or edgelist)", f.format)
	}
	if !(f.maxMemory > 0) || f.maxMemory > 1<<20 {
		return nil, usagef("--max-memory = %v GiB must be positive (and at most 2^20)", f.maxMemory)
	}
	if f.maxNodes < 1 {
		return nil, usagef("--max-nodes = %d must be at least 1", f.maxNodes)
	}
	return s, nil
}

func runGW(cmd *cobra.Command, a *app, f *gwFlags, pathA, pathB string) error {
	s, err := f.build(cmd)
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
	if f.solver == "badmm" && changed(cmd.Flags(), "inner") {
		a.log.Warn("--inner has no effect with --solver badmm")
	}
	if f.directed && strings.EqualFold(f.format, "json") {
		a.log.Warn("--directed has no effect on JSON graphs (their adjacency is used as given)")
	}
	t, obj, err := layers.GWD(s, layers.Space{C: ga.C, Mu: ga.Mu, F: ga.F}, layers.Space{C: gb.C, Mu: gb.Mu, F: gb.F})
	if err != nil {
		return fmt.Errorf("gw: %w", err)
	}
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		return fmt.Errorf("gw: %w: the objective is %v", layers.ErrNumerical, obj)
	}
	out := cmd.OutOrStdout()
	res := gwResult{
		Objective: obj, Transport: rowsOf(t), Solver: s.Name(), Layers: s.Depth(),
		FeatureWeight: s.FeatureWeight(), Rows: "nodes of A", Cols: "nodes of B",
		NodesA: ga.N(), NodesB: gb.N(), FeatureDim: ga.Dim(),
	}
	switch v := s.(type) {
	case layers.PPA:
		res.Gamma, res.Inner = v.Gamma, &v.Inner
	case layers.BADMM:
		res.Gamma = v.Gamma
	}
	if f.json {
		if err := writeJSON(out, res); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	settings := fmt.Sprintf("%s, γ = %g, M = %d", res.Solver, res.Gamma, res.Layers)
	if res.Inner != nil {
		settings += fmt.Sprintf(", %d sweeps", *res.Inner)
	}
	feat := "no node features"
	if res.FeatureDim > 0 {
		feat = fmt.Sprintf("%d-dimensional node features, weight %g", res.FeatureDim, res.FeatureWeight)
	}
	if _, err := fmt.Fprintf(out, "objective: %.6g\nA: %d nodes, B: %d nodes, %s (%s)\n", obj, res.NodesA, res.NodesB, feat, settings); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// read loads graph which ("A" or "B") in the format of --format (or guessed from the name).
// The readers' errors name the file.
func (f *gwFlags) read(path, which string) (*graphs.Graph, error) {
	lim := graphs.Limits{MaxNodes: f.maxNodes, MaxDenseBytes: int64(f.maxMemory * (1 << 30))}
	format := strings.ToLower(f.format)
	if format == "" {
		format = "edgelist"
		if strings.EqualFold(filepath.Ext(path), ".json") {
			format = "json"
		}
	}
	var g *graphs.Graph
	var err error
	if format == "json" {
		g, err = graphs.ReadJSONFile(path, lim)
	} else {
		g, err = graphs.ReadEdgeListFile(path, graphs.EdgeListOptions{Directed: f.directed, Limits: lim})
	}
	if err == nil {
		err = g.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", which, err)
	}
	return g, nil
}

// rowsOf copies a matrix into rows.
func rowsOf(m mat.Matrix) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}
