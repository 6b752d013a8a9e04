package semisup

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// withEdgeLabels returns copies of data whose edges carry a label, 1 or 2 by the parity of
// the sum of their ends (both directions alike).
func withEdgeLabels(t *testing.T, data []*graphs.Graph) []*graphs.Graph {
	t.Helper()
	out := make([]*graphs.Graph, len(data))
	for k, g := range data {
		var entries []csr.Entry
		for i := range g.N() {
			cols, _ := g.A.Row(i)
			for _, j := range cols {
				entries = append(entries, csr.Entry{Row: i, Col: int(j), Val: float64(1 + (i+int(j))%2)})
			}
		}
		el, err := csr.Build(g.N(), entries)
		if err != nil {
			t.Fatal(err)
		}
		c := *g
		c.EdgeLabels = el
		out[k] = &c
	}
	return out
}

// With WLEdgeLabels the Weisfeiler-Lehman labels read the edges' labels (another vocabulary
// than without), the file keeps the setting (a file with it but no WL labels is refused), a
// graph without edge labels is refused with a clear error, a model made from graphs some of
// which lack edge labels reads none (the plain model), and the setting without WL labels is
// refused.
func TestTemplateWLEdgeLabels(t *testing.T) {
	plainData, labels := semisuptest.TwoStructures(t, 12, 5)
	data := withEdgeLabels(t, plainData)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.WLLabels = 3, 2
	plain, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	edgeCfg := cfg
	edgeCfg.WLEdgeLabels = true
	m, err := NewTemplateModel(data, labels, 2, edgeCfg)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Config.WLEdgeLabels || slices.EqualFunc(m.WLVocabulary, plain.WLVocabulary, slices.Equal) {
		t.Errorf("with edge labels: setting kept %v, the plain vocabulary %v", m.Config.WLEdgeLabels, m.WLVocabulary)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	if back := reloaded(t, m, data); !back.Config.WLEdgeLabels {
		t.Error("the file lost the edge labels setting")
	}
	refusesDamaged(t, m, map[string]func(p *templatePayload){
		"edge labels without WL labels": func(p *templatePayload) { p.Config.WLLabels, p.WLVocab = 0, nil },
	})
	if _, err := m.Logits(context.Background(), plainData[:1], 0); err == nil || !strings.Contains(err.Error(), "edge labels") {
		t.Errorf("a graph without edge labels: %v", err)
	}
	mixed := slices.Clone(data)
	mixed[3] = plainData[3]
	some, err := NewTemplateModel(mixed, labels, 2, edgeCfg)
	if err != nil {
		t.Fatal(err)
	}
	if some.Config.WLEdgeLabels || !slices.EqualFunc(some.WLVocabulary, plain.WLVocabulary, slices.Equal) {
		t.Errorf("one graph without edge labels: setting %v, vocabulary %v, want the plain model's %v", some.Config.WLEdgeLabels, some.WLVocabulary, plain.WLVocabulary)
	}
	bad := edgeCfg
	bad.WLLabels = 0
	if _, err := NewTemplateModel(data, labels, 2, bad); err == nil {
		t.Error("edge labels without WL labels accepted")
	}
}
