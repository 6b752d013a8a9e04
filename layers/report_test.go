package layers

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestReport: the settings each solver has are in the report and its text, the others are
// null; the transport is copied row by row.
func TestReport(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a, b := randomSpace(rng, 5, 0.5, 1, false, 0), randomSpace(rng, 4, 0.5, 1, false, 0)
	for _, tc := range []struct {
		name SolverName
		text string
		null []string
	}{
		{"cg", "cg, ", []string{`"gamma":null`, `"inner":null`}},
		{"ppa", "ppa, γ = 0.01, M = 50, 5 sweeps", []string{`"anchors":null`}},
		{"badmm", "badmm, γ = 1, M = 50", []string{`"anchors":null`, `"inner":null`}},
	} {
		o, err := DefaultSolverOptions(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSolver(o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Discrepancy(s, a, b)
		if err != nil {
			t.Fatal(err)
		}
		rep := NewReport(o, r, 0, "the product coupling", 0.5)
		if rep.NodesA != 5 || rep.NodesB != 4 || len(rep.Transport) != 5 || rep.Transport[4][3] != r.Transport.At(4, 3) {
			t.Errorf("%s: %d×%d nodes, transport %d rows", tc.name, rep.NodesA, rep.NodesB, len(rep.Transport))
		}
		var text strings.Builder
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "A: 5 nodes, B: 4 nodes, no node features ("+tc.text) || !strings.HasPrefix(text.String(), "objective: ") {
			t.Errorf("%s: text %q", tc.name, text.String())
		}
		for _, null := range tc.null {
			if !strings.Contains(string(js), null) {
				t.Errorf("%s: JSON without %s: %s", tc.name, null, js)
			}
		}
	}
}
