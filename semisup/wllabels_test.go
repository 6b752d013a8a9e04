package semisup

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// pathAndIsolated is the path 0–1–2 plus an isolated node 3, labelled a, b, a, b (one-hot).
func pathAndIsolated(t *testing.T, name string) (*graphs.Graph, []float64) {
	t.Helper()
	a, err := csr.Build(4, []csr.Entry{{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 2, Val: 1}, {Row: 2, Col: 1, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return &graphs.Graph{Name: name, A: a, Mu: []float64{0.25, 0.25, 0.25, 0.25}}, []float64{1, 0, 0, 1, 1, 0, 0, 1}
}

// Nodes with the same labelled neighbourhood tree share a one-hot column, others do not, a
// code found in one graph only has no column, and every block is scaled by 1/√(h+1).
func TestWLLabelFeaturesByHand(t *testing.T) {
	g1, x := pathAndIsolated(t, "one")
	g2, _ := pathAndIsolated(t, "two")
	// A third graph, b–b, whose codes after one iteration occur nowhere else.
	a3, err := csr.Build(2, []csr.Entry{{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	g3, x3 := &graphs.Graph{Name: "bb", A: a3, Mu: []float64{0.5, 0.5}}, []float64{0, 1, 0, 1}
	var codes []*mat.Dense
	for i, g := range []*graphs.Graph{g1, g2, g3} {
		in := x
		if i == 2 {
			in = x3
		}
		c, err := wlCodes(g, in, 2, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, c)
	}
	vocab := wlVocabulary(codes, 1)
	// Iteration 1: (a; b), (b; a a), (b; none) occur in two graphs, (b; b) in one.
	if len(vocab) != 1 || len(vocab[0]) != 3 {
		t.Fatalf("vocabulary %v, want 3 codes of iteration 1", vocab)
	}
	got := appendWLRows(nil, x, 4, 2, wlPositions(codes[0], wlIndex(vocab), 0), vocab, 0)
	s := 1 / math.Sqrt(2)
	row := func(i int) []float64 { return got[i*5 : (i+1)*5] }
	for i := range 4 {
		ones := 0
		for c, v := range row(i)[2:] {
			switch v {
			case s:
				ones++
			case 0:
			default:
				t.Errorf("node %d, one-hot column %d: %v", i, c, v)
			}
		}
		if ones != 1 || row(i)[0] != s*x[2*i] || row(i)[1] != s*x[2*i+1] {
			t.Errorf("node %d: %v", i, row(i))
		}
	}
	same := func(i, j int) bool { return mat.Equal(mat.NewVecDense(5, row(i)), mat.NewVecDense(5, row(j))) }
	if !same(0, 2) || same(1, 3) {
		t.Errorf("the two ends of the path differ, or the middle equals the isolated node: %v", got)
	}
	bb := appendWLRows([]float64{7}, x3, 2, 2, wlPositions(codes[2], wlIndex(vocab), 0), vocab, 0)[1:]
	for c, v := range bb[2:5] {
		if v != 0 {
			t.Errorf("a code of one graph has column %d", c)
		}
	}

	// With rare columns, the code of one graph takes the rare column of its hash, after the
	// vocabulary's, and a vocabulary code keeps its own.
	const rare = 8
	rows := appendWLRows(nil, x3, 2, 2, wlPositions(codes[2], wlIndex(vocab), rare), vocab, rare)
	for i := range 2 {
		r := rows[i*(5+rare) : (i+1)*(5+rare)]
		want := 2 + len(vocab[0]) + rareColumn(uint64(codes[2].At(i, 1)), rare)
		for c, v := range r[2:] {
			if (c+2 == want) != (v == s) || (v != s && v != 0) {
				t.Errorf("node %d of bb, column %d: %v (the rare code's column is %d)", i, c+2, v, want)
			}
		}
	}
	wide := appendWLRows(nil, x, 4, 2, wlPositions(codes[0], wlIndex(vocab), rare), vocab, rare)
	for i := range 4 {
		if !mat.Equal(mat.NewVecDense(5, wide[i*(5+rare):i*(5+rare)+5]), mat.NewVecDense(5, row(i))) {
			t.Errorf("node %d of a vocabulary code moved with rare columns: %v", i, wide[i*(5+rare):(i+1)*(5+rare)])
		}
	}
}

// Rare codes spread over the rare columns about evenly.
func TestRareColumnSpreads(t *testing.T) {
	const rare, codes = 16, 16000
	count := make([]int, rare)
	for c := range uint64(codes) {
		count[rareColumn(c*7919, rare)]++
	}
	for col, k := range count {
		if k < codes/rare*8/10 || k > codes/rare*12/10 {
			t.Errorf("column %d holds %d of %d codes", col, k, codes)
		}
	}
}

// The vocabulary keeps the codes of at least two graphs, most common first then by code, at
// most wlVocabularySize per iteration.
func TestWLVocabularyOrderAndSize(t *testing.T) {
	// Graph i has one node per code; column 0 is iteration 0 (unread), column 1 iteration 1.
	byGraph := [][]uint64{{7, 5, 9}, {5, 9, 3}, {5, 11}}
	var codes []*mat.Dense
	for _, cs := range byGraph {
		c := mat.NewDense(len(cs), 2, nil)
		for v, code := range cs {
			c.Set(v, 1, float64(code))
		}
		codes = append(codes, c)
	}
	if got := wlVocabulary(codes, 1)[0]; len(got) != 2 || got[0] != 5 || got[1] != 9 {
		t.Errorf("vocabulary %v, want [5 9]", got)
	}
	many := mat.NewDense(wlVocabularySize+50, 2, nil)
	for v := range wlVocabularySize + 50 {
		many.Set(v, 1, float64(1000-v))
	}
	got := wlVocabulary([]*mat.Dense{many, many}, 1)[0]
	if len(got) != wlVocabularySize || got[0] != uint64(1000-wlVocabularySize-49) {
		t.Errorf("%d codes from %d, the first %d", len(got), wlVocabularySize+50, got[0])
	}
}

// A model with Weisfeiler-Lehman labels reads them on graphs it has never seen, its file keeps
// the vocabulary (the loaded model scores alike), and a file with a damaged vocabulary, or a
// configuration that asks for labels and rounds at once, is refused.
func TestTemplateWLLabels(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 5)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.WLLabels = 3, 2
	m, err := NewTemplateModel(data[:8], labels[:8], 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.WLVocabulary) != 2 || len(m.WLVocabulary[0]) == 0 || m.readWidth() != m.Inputs+vocabularyWidth(m.WLVocabulary) {
		t.Fatalf("vocabulary %v, read width %d for %d inputs", m.WLVocabulary, m.readWidth(), m.Inputs)
	}
	if _, c := m.Templates[0].H.Dims(); c != m.features() {
		t.Errorf("templates' features %d wide, the model compares %d", c, m.features())
	}
	if err := FitTemplates(context.Background(), m, data[:8], labels[:8], TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	reloaded(t, m, data)
	rareCfg := cfg
	rareCfg.WLRareColumns = 4
	rm, err := NewTemplateModel(data[:8], labels[:8], 2, rareCfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := vocabularyWidth(rm.WLVocabulary) + 2*4; rm.WLLabelColumns() != want || rm.readWidth() != rm.Inputs+want {
		t.Errorf("with 4 rare columns: %d label columns, read width %d; want %d and %d", rm.WLLabelColumns(), rm.readWidth(), want, rm.Inputs+want)
	}
	reloaded(t, rm, data)
	refusesDamaged(t, m, map[string]func(p *templatePayload){
		"one iteration's vocabulary": func(p *templatePayload) { p.WLVocab = p.WLVocab[:1] },
		"a repeated code":            func(p *templatePayload) { p.WLVocab[0] = append(p.WLVocab[0], p.WLVocab[0][0]) },
		"a code of 60 bits":          func(p *templatePayload) { p.WLVocab[0] = append(p.WLVocab[0], 1<<60) },
		"a vocabulary without WL":    func(p *templatePayload) { p.Config.WLLabels = 0 },
	})
	// On attributes (not one-hot) the model keeps no vocabulary and scores as without labels.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range data {
		f := mat.NewDense(g.N(), 2, nil)
		for i := range g.N() {
			f.Set(i, 0, rng.NormFloat64())
			f.Set(i, 1, rng.NormFloat64())
		}
		g.F = f
	}
	with, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain := cfg
	plain.WLLabels = 0
	without, err := NewTemplateModel(data, labels, 2, plain)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := with.Logits(context.Background(), data, 0)
	b, errB := without.Logits(context.Background(), data, 0)
	if errA != nil || errB != nil || with.WLVocabulary != nil || !mat.Equal(a, b) {
		t.Errorf("on attributes: vocabulary %v, errors %v %v, the same scores %v", with.WLVocabulary, errA, errB, errA == nil && errB == nil && mat.Equal(a, b))
	}
	reloaded(t, with, data)
	for _, c := range []func(*TemplateConfig){
		func(c *TemplateConfig) { c.WLLabels = -1 },
		func(c *TemplateConfig) { c.WLLabels = graphs.MaxWLIterations + 1 },
		func(c *TemplateConfig) { c.WLRounds = 1 },
		func(c *TemplateConfig) { c.WLRareColumns = -1 },
		func(c *TemplateConfig) { c.WLRareColumns = 1 << 20 },
		func(c *TemplateConfig) { c.WLLabels, c.WLRareColumns = 0, 8 },
	} {
		bad := cfg
		c(&bad)
		if _, err := NewTemplateModel(data, labels, 2, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
