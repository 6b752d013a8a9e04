package layers

import (
	"fmt"
	"io"
)

// Report is one discrepancy between two graphs A and B with the settings that computed it:
// what 'gwf gw' writes, as JSON or, by WriteText, as text.
type Report struct {
	Objective float64     `json:"objective"`
	Transport [][]float64 `json:"transport"` // rows: the nodes of A
	// MarginalError is max |row sum − μ_A|, |column sum − μ_B| of the transport.
	MarginalError float64    `json:"marginal_error"`
	Solver        SolverName `json:"solver"`
	Gamma         *float64   `json:"gamma"` // null for cg
	Layers        int        `json:"layers"`
	// Iterations is the number of layers run: Layers, or fewer when CG converged.
	Iterations int  `json:"iterations"`
	Inner      *int `json:"inner"` // null for badmm, cg and the converged mode
	// Anchors is the number of cg's anchored starts (null for ppa and badmm), Start its first
	// start: "the product coupling" (μ_A·μ_Bᵀ) or the file it was read from.
	Anchors *int    `json:"anchors"`
	Start   string  `json:"start,omitempty"`
	Tol     float64 `json:"tol"`
	// SweepCapHits counts the layers whose converged-mode sweeps stopped at MaxSweeps.
	SweepCapHits  int     `json:"sweep_cap_hits"`
	Rounded       bool    `json:"rounded"`
	FeatureWeight float64 `json:"feature_weight"`
	// Seconds is the solve's wall time.
	Seconds    float64 `json:"seconds"`
	Rows       string  `json:"rows"`
	Cols       string  `json:"cols"`
	NodesA     int     `json:"nodes_a"`
	NodesB     int     `json:"nodes_b"`
	FeatureDim int     `json:"feature_dim"`
}

// NewReport describes r, computed with the options o from A to B (a transport r has: A's node
// count is its rows) with node features of dimension dim (0: none); start names CG's first
// start (ignored for the other solvers), seconds is the solve's wall time.
func NewReport(o SolverOptions, r Result, dim int, start string, seconds float64) Report {
	na, nb := r.Transport.Dims()
	rep := Report{
		Objective: r.Objective, Transport: make([][]float64, na), MarginalError: r.MarginalError, Solver: o.Name,
		Layers: o.Layers, Iterations: r.Layers, Tol: o.Tol, SweepCapHits: r.SweepCapHits, Rounded: o.Round && o.Name != SolverCG,
		FeatureWeight: o.FeatureWeight, Seconds: seconds, Rows: "nodes of A", Cols: "nodes of B",
		NodesA: na, NodesB: nb, FeatureDim: dim,
	}
	for i := range rep.Transport {
		rep.Transport[i] = append([]float64(nil), r.Transport.RawRowView(i)...)
	}
	switch o.Name {
	case SolverCG:
		rep.Anchors, rep.Start = &o.Anchors, start
	case SolverPPA:
		if o.Tol == 0 {
			rep.Inner = &o.Inner
		}
		fallthrough
	default:
		rep.Gamma = &o.Gamma
	}
	return rep
}

// WriteText writes the objective, the marginal error, and the sizes with the settings.
func (rep Report) WriteText(w io.Writer) error {
	settings := fmt.Sprintf("%s, γ = %g, M = %d", rep.Solver, deref(rep.Gamma), rep.Layers)
	if rep.Gamma == nil {
		settings = fmt.Sprintf("%s, %d iterations, from %s and %d anchored starts", rep.Solver, rep.Iterations, rep.Start, deref(rep.Anchors))
	}
	if rep.Inner != nil {
		settings += fmt.Sprintf(", %d sweeps", *rep.Inner)
	}
	if rep.Tol > 0 && rep.Gamma != nil {
		settings += fmt.Sprintf(", tol %g", rep.Tol)
	}
	if rep.Rounded {
		settings += ", rounded"
	}
	feat := "no node features"
	if rep.FeatureDim > 0 {
		feat = fmt.Sprintf("%d-dimensional node features, weight %g", rep.FeatureDim, rep.FeatureWeight)
	}
	_, err := fmt.Fprintf(w, "objective: %.6g\nmarginal error: %.3g\nA: %d nodes, B: %d nodes, %s (%s)\n",
		rep.Objective, rep.MarginalError, rep.NodesA, rep.NodesB, feat, settings)
	return err
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}
