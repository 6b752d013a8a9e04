package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// ringsOrPairs returns n graphs, class 0 a cycle of 12 nodes and class 1 two disjoint cycles
// of 6 nodes, nodes shuffled: every node has degree 2 in both classes, so
// degree features and the Weisfeiler-Lehman test (and a message-passing encoder) cannot tell
// them apart — only the structure as a whole can.
func ringsOrPairs(t testing.TB, n int, seed uint64) ([]*graphs.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	var data []*graphs.Graph
	var labels []int
	for i := 0; i < n; i++ {
		const m = 6
		perm := rng.Perm(2 * m)
		var entries []csr.Entry
		edge := func(a, b int) {
			entries = append(entries, csr.Entry{Row: perm[a], Col: perm[b], Val: 1}, csr.Entry{Row: perm[b], Col: perm[a], Val: 1})
		}
		if i%2 == 0 {
			for a := 0; a < 2*m; a++ {
				edge(a, (a+1)%(2*m))
			}
		} else {
			for a := 0; a < m; a++ {
				edge(a, (a+1)%m)
				edge(m+a, m+(a+1)%m)
			}
		}
		a, err := csr.Build(2*m, entries)
		if err != nil {
			t.Fatal(err)
		}
		mu := make([]float64, 2*m)
		for q := range mu {
			mu[q] = 1 / float64(2*m)
		}
		data = append(data, &graphs.Graph{Name: "g", A: a, Mu: mu})
		labels = append(labels, i%2)
	}
	return data, labels
}

func smallTemplateConfig() TemplateConfig {
	c := DefaultTemplateConfig()
	c.Templates, c.TemplateNodes, c.EncoderHidden, c.Hidden, c.Epochs, c.BatchSize, c.Validation = 4, 8, []int{8}, []int{8}, 30, 8, 0
	c.LearningRate = 0.02
	return c
}

// Graphs whose classes differ only in their structure (one ring or two, every node of degree
// 2) are told apart by the template layer on graphs never seen, and the learned templates
// recover the classes: a graph is closest to a template started from its own class.
func TestTemplatesRecoverStructureClasses(t *testing.T) {
	data, labels := ringsOrPairs(t, 24, 1)
	cfg := smallTemplateConfig()
	cfg.TemplateNodes = 12
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	h := m.History
	if !(h[len(h)-1].CrossEntropy < h[0].CrossEntropy) {
		t.Errorf("the cross-entropy did not decrease: first %v, last %v", h[0].CrossEntropy, h[len(h)-1].CrossEntropy)
	}
	fresh, truth := ringsOrPairs(t, 20, 2)
	pred, err := m.Predict(context.Background(), fresh, 0)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(truth, pred); acc < 0.9 {
		t.Errorf("accuracy on unseen graphs %.2f, want ≥ 0.9 (chance 0.5)", acc)
	}
	d, err := m.Discrepancies(context.Background(), fresh, 0)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i := range fresh {
		nearest := 0
		for k := range m.Templates {
			if d.At(i, k) < d.At(i, nearest) {
				nearest = k
			}
		}
		if nearest%2 == truth[i] { // template k started from class k mod 2
			right++
		}
	}
	if frac := float64(right) / float64(len(fresh)); frac < 0.9 {
		t.Errorf("%.2f of unseen graphs closest to a template of their class, want ≥ 0.9", frac)
	}
}

// The model's gradients are those of its loss: central differences of the mean cross-entropy
// of a batch in the encoder's, the templates' (node weights included), the feature weight's and
// the head's parameters (exact CG, whose transports do not move under a small perturbation: the
// envelope theorem).
func TestTemplateModelGradientsByFiniteDifferences(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 6, 3)
	// Continuous node features: with one-hot degrees, ties make some optimal transports
	// non-unique, where the discrepancy has a kink and central differences jump.
	frng := rand.New(rand.NewPCG(5, 5))
	for _, g := range data {
		g.F = mat.NewDense(g.N(), 3, nil)
		for i := 0; i < g.N(); i++ {
			for c := 0; c < 3; c++ {
				g.F.Set(i, c, frng.NormFloat64())
			}
		}
	}
	cfg := smallTemplateConfig()
	cfg.Templates, cfg.TemplateNodes, cfg.Encoder, cfg.LearnWeight, cfg.LearnNodeWeights = 3, 5, EncoderGIN, true, true
	cfg.GraphStatistics = true
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range m.Templates { // away from uniform, where ties make transports non-unique
		for j := range tg.Logits {
			tg.Logits[j] = frng.NormFloat64()
		}
	}
	b, err := m.bind(data)
	if err != nil {
		t.Fatal(err)
	}
	layer := gwops.Templates{Solver: m.solver()}
	batch := []int{0, 1, 2, 3, 4, 5}
	params := m.params()
	_, grads, err := b.lossGrad(params, batch, labels, layer)
	if err != nil {
		t.Fatal(err)
	}
	loss := func() float64 {
		ce, _, err := b.lossGrad(params, batch, labels, layer)
		if err != nil {
			t.Fatal(err)
		}
		return ce
	}
	const eps = 1e-6
	rng := rand.New(rand.NewPCG(4, 4))
	checked := 0
	for i, p := range params {
		data := p.Data().([]float64)
		for trial := 0; trial < 4; trial++ {
			j := rng.IntN(len(data))
			// A template's structure moves symmetrically, as its gradient does (CG takes its
			// symmetric path on symmetric structures): perturb V_ab and V_ba together.
			js, want := []int{j}, grads[i][j]
			if isTemplateStructure(m, i) {
				n := p.Shape()[0]
				a, c := j/n, j%n
				if math.Abs(data[j]) < 10*eps {
					continue // the ReLU's kink
				}
				if a != c {
					js, want = append(js, c*n+a), want+grads[i][c*n+a]
				}
			}
			olds := make([]float64, len(js))
			for q, jq := range js {
				olds[q] = data[jq]
			}
			set := func(d float64) { // from the old values exactly, so that nothing drifts
				for q, jq := range js {
					data[jq] = olds[q] + d
				}
			}
			set(eps)
			plus := loss()
			set(-eps)
			minus := loss()
			set(0)
			fd := (plus - minus) / (2 * eps)
			if math.Abs(fd-want) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("parameter %d entry %d: backward %v, central difference %v", i, j, want, fd)
			}
			checked++
		}
	}
	if checked < 3*len(params) {
		t.Fatalf("only %d entries checked", checked)
	}
}

// isTemplateStructure reports whether parameter i of m.params() is a template's V.
func isTemplateStructure(m *TemplateModel, i int) bool {
	off := 0
	if m.Encoder != nil {
		off = 2 * len(m.Encoder.W)
	}
	return i >= off && i < off+len(m.Templates)
}

// A graph's discrepancies and scores do not depend on the graphs scored with it: training
// graphs scored as unseen ones, in another order and in other batches, get the same.
func TestTemplateModelScoresPerGraph(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 10, 5)
	cfg := smallTemplateConfig()
	cfg.Epochs = 2
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	all, err := m.Discrepancies(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		one, err := m.Discrepancies(context.Background(), data[i:i+1], 1)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(one, all.Slice(i, i+1, 0, len(m.Templates)), 1e-12) {
			t.Errorf("graph %d alone %v, in the batch %v", i, mat.Formatted(one), mat.Formatted(all.Slice(i, i+1, 0, len(m.Templates))))
		}
		if d := all.RawRowView(i); !finite(d) || mat.Min(all) < 0 {
			t.Errorf("graph %d: discrepancies %v", i, d)
		}
	}
}

// The same seed gives the same model, whatever the number of workers.
func TestTemplateModelDeterministic(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 6)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation = 3, 0.25
	var logits []*mat.Dense
	for _, workers := range []int{1, 2} {
		m, err := NewTemplateModel(data, labels, 2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{Workers: workers}); err != nil {
			t.Fatal(err)
		}
		l, err := m.Logits(context.Background(), data, workers)
		if err != nil {
			t.Fatal(err)
		}
		logits = append(logits, l)
	}
	if !mat.Equal(logits[0], logits[1]) {
		t.Error("one and two workers trained different models")
	}
}

// A cancelled context stops training with its error.
func TestFitTemplatesCancelled(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 8, 7)
	m, err := NewTemplateModel(data, labels, 2, smallTemplateConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := FitTemplates(ctx, m, data, labels, TemplateOptions{}); err == nil {
		t.Fatal("a cancelled fit ran")
	}
}

// Bad settings and data are refused with an error.
func TestTemplateConfigErrors(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 4, 8)
	bad := []func(*TemplateConfig){
		func(c *TemplateConfig) { c.Templates = -1 },
		func(c *TemplateConfig) { c.TemplateNodes = -1 },
		func(c *TemplateConfig) { c.TemplateNodes = maxTemplateNodes + 1 },
		func(c *TemplateConfig) { c.FeatureWeight = math.NaN() },
		func(c *TemplateConfig) { c.Encoder = EncoderGCN },
		func(c *TemplateConfig) { c.LearningRate = 0 },
		func(c *TemplateConfig) { c.Epochs = 0 },
		func(c *TemplateConfig) { c.BatchSize = 0 },
		func(c *TemplateConfig) { c.Validation = 1 },
		func(c *TemplateConfig) { c.Patience = -1 },
		func(c *TemplateConfig) { c.MaxEpochs = c.Epochs - 1 },
		func(c *TemplateConfig) { c.MaxEpochs = 1 << 30 },
		func(c *TemplateConfig) { c.AverageEpochs = -1 },
		func(c *TemplateConfig) { c.AverageEpochs = math.NaN() },
		func(c *TemplateConfig) { c.SolverIterations = -1 },
		func(c *TemplateConfig) { c.SolverIterations = 10001 },
		func(c *TemplateConfig) { c.SolverTolerance = -1e-6 },
		func(c *TemplateConfig) { c.SolverTolerance = 1 },
		func(c *TemplateConfig) { c.SolverTolerance = math.NaN() },
		func(c *TemplateConfig) { c.WLRounds = -1 },
		func(c *TemplateConfig) { c.WLRounds = graphs.MaxWLIterations + 1 },
		func(c *TemplateConfig) { c.EncoderHidden = []int{0} },
		func(c *TemplateConfig) { c.Hidden = []int{-2} },
		func(c *TemplateConfig) { c.PseudoLabels = -0.1 },
		func(c *TemplateConfig) { c.PseudoLabels = 1.5 },
		func(c *TemplateConfig) { c.PseudoLabels = math.NaN() },
	}
	for i, f := range bad {
		c := DefaultTemplateConfig()
		f(&c)
		if _, err := NewTemplateModel(data, labels, 2, c); err == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
	}
	if _, err := NewTemplateModel(data, labels, 1, DefaultTemplateConfig()); err == nil {
		t.Error("one class accepted")
	}
	if _, err := NewTemplateModel(data, []int{Unlabeled, Unlabeled, Unlabeled, Unlabeled}, 2, DefaultTemplateConfig()); err == nil {
		t.Error("no labelled graph accepted")
	}
	m, err := NewTemplateModel(data, labels, 2, DefaultTemplateConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, []int{0, 5, 0, 1}, TemplateOptions{}); err == nil {
		t.Error("a class beyond the model's accepted")
	}
}

// A saved model predicts as the trained one did, its file is deterministic, and a damaged or
// foreign file is refused. The model reads its features with Weisfeiler-Lehman rounds, which
// widen what the encoder reads and the templates compare.
func TestTemplateModelSaveLoad(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 9)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Encoder, cfg.LearnWeight, cfg.WLRounds, cfg.WLLabels, cfg.GraphStatistics = 3, 0.25, EncoderGIN, true, 2, 0, true
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	m.Classes = []int{-1, 1}
	back := reloaded(t, m, data)
	if back.FeatureWeight() != m.FeatureWeight() || m.FeatureWeight() == cfg.FeatureWeight {
		t.Errorf("feature weight %v trained, %v loaded, %v at the start", m.FeatureWeight(), back.FeatureWeight(), cfg.FeatureWeight)
	}
	if r, _ := m.Templates[0].H.Dims(); r == 0 || m.features() != 3*m.Inputs+8 || back.features() != m.features() {
		t.Errorf("%d input features read with 2 rounds, then 8 encoded: %d compared, %d loaded", m.Inputs, m.features(), back.features())
	}
	if back.Label(1) != 1 || back.BestEpoch != m.BestEpoch || len(back.History) != 3 {
		t.Errorf("loaded: labels %v, best epoch %d, %d epochs", back.Classes, back.BestEpoch, len(back.History))
	}
	var a, b bytes.Buffer
	if err := m.Encode(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("a loaded model writes another file")
	}
	file := a.Bytes()
	for _, bad := range [][]byte{
		file[:len(file)/2],
		bytes.Replace(file, []byte(`"best_epoch"`), []byte(`"best_epoxh"`), 1),
	} {
		if _, err := DecodeTemplates(bytes.NewReader(bad)); err == nil {
			t.Error("a damaged file was read")
		}
	}
	if !IsTemplateFile(file[:min(256, len(file))]) {
		t.Error("IsTemplateFile does not know the file")
	}
	// A consistent payload with a wrong shape, sealed as a valid file, is refused too.
	refusesDamaged(t, m, map[string]func(p *templatePayload){
		"one shift for the templates":   func(p *templatePayload) { p.Shift = p.Shift[:1] },
		"one shift for the statistics":  func(p *templatePayload) { p.StatShift = p.StatShift[:1] },
		"a statistic's scale of 0":      func(p *templatePayload) { p.StatScale[3] = 0 },
		"statistics the head does read": func(p *templatePayload) { p.Config.GraphStatistics = false },
	})
}

// reloaded saves m, loads it back and checks that the loaded model scores data as m does.
func reloaded(t *testing.T, m *TemplateModel, data []*graphs.Graph) *TemplateModel {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.templates")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTemplates(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Logits(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Logits(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) {
		t.Error("the loaded model scores differently")
	}
	return back
}

// refusesDamaged seals each damaged copy of m's file payload as a valid file and checks that
// it is refused as corrupt. The damages may change the payload's slices in place: each one
// gets a payload of its own.
func refusesDamaged(t *testing.T, m *TemplateModel, damages map[string]func(p *templatePayload)) {
	t.Helper()
	for name, damage := range damages {
		var p templatePayload
		raw, err := json.Marshal(m.payload())
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		damage(&p)
		payload, _ := json.Marshal(p)
		sealed, _ := sealedfile.Seal(TemplateFormat, templateFileVersion, payload)
		if _, err := DecodeTemplates(bytes.NewReader(sealed)); !errors.Is(err, ErrCorruptTemplates) {
			t.Errorf("a file with %s: %v", name, err)
		}
	}
}

// With GraphStatistics the head reads each graph's statistics standardized over the labelled
// training graphs (mean 0, deviation 1 where they vary), beside its discrepancies.
func TestTemplateGraphStatistics(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 4)
	cfg := smallTemplateConfig()
	cfg.GraphStatistics = true
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := m.Head.W[0].Dims(); r != len(m.Templates)+graphs.NumStatistics {
		t.Fatalf("the head reads %d inputs, want %d discrepancies and %d statistics", r, len(m.Templates), graphs.NumStatistics)
	}
	s, err := m.standardStatistics(data)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < graphs.NumStatistics; j++ {
		col := make([]float64, len(s))
		for i := range s {
			col[i] = s[i][j]
		}
		mean, std := stat.MeanStdDev(col, nil)
		if math.Abs(mean) > 1e-9 || (std != 0 && math.Abs(std-1) > 1e-9) {
			t.Errorf("statistic %s: mean %v, deviation %v over the training graphs", graphs.StatisticNames()[j], mean, std)
		}
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	fresh, truth := semisuptest.TwoStructures(t, 12, 5)
	pred, err := m.Predict(context.Background(), fresh, 0)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(truth, pred); acc < 0.8 {
		t.Errorf("accuracy %.2f on unseen graphs, want ≥ 0.8", acc)
	}
}

// With β > 0 the graphs without a label train the templates through the reconstruction term:
// a model trained on few labels and many unlabelled graphs differs from one trained on the
// labels alone, and its losses stay finite.
func TestTemplatesSemiSupervised(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 24, 11)
	few := append([]int(nil), labels...)
	for i := 4; i < len(few); i++ {
		few[i] = Unlabeled
	}
	var v [][]float64
	for _, beta := range []float64{0, 0.5} {
		cfg := smallTemplateConfig()
		cfg.Epochs, cfg.Beta = 3, beta
		m, err := NewTemplateModel(data, few, 2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := FitTemplates(context.Background(), m, data, few, TemplateOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, e := range m.History {
			if !(e.CrossEntropy >= 0) || math.IsInf(e.CrossEntropy, 0) {
				t.Fatalf("β = %v: epoch %d cross-entropy %v", beta, e.Epoch, e.CrossEntropy)
			}
		}
		v = append(v, append([]float64(nil), m.Templates[0].V.RawMatrix().Data...))
	}
	if slices.Equal(v[0], v[1]) {
		t.Error("the unlabelled graphs did not move the templates")
	}
}

// With Patience, training ends once the validation accuracy has not risen for that many
// epochs, keeping the best epoch's weights.
func TestFitTemplatesPatience(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 15)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Patience = 40, 0.25, 2
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	n := len(m.History)
	if n >= cfg.Epochs {
		t.Fatalf("trained all %d epochs", n)
	}
	rose, top := 0, math.Inf(-1) // the last epoch whose validation accuracy rose
	for _, e := range m.History {
		if e.ValidationAccuracy > top {
			rose, top = e.Epoch, e.ValidationAccuracy
		}
	}
	if n != rose+cfg.Patience {
		t.Errorf("stopped at epoch %d; the accuracy last rose at %d, patience %d", n, rose, cfg.Patience)
	}
	if m.BestEpoch < rose || m.History[m.BestEpoch-1].ValidationAccuracy != top {
		t.Errorf("kept epoch %d, best %v at epoch %d", m.BestEpoch, top, rose)
	}
}

// With MaxEpochs, training goes on past Epochs while the validation accuracy rose within the
// last extendWindow(Epochs) epochs, and stops at the first epoch where it has not; its first
// Epochs epochs are those of the model trained without it.
func TestFitTemplatesMaxEpochs(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 15)
	train := func(c TemplateConfig) *TemplateModel {
		t.Helper()
		m, err := NewTemplateModel(data, labels, 2, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
			t.Fatal(err)
		}
		return m
	}
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation = 3, 0.25 // its accuracy rises at epoch 3 on these graphs
	plain := train(cfg)
	cfg.MaxEpochs = 30
	m := train(cfg)
	n, w := len(m.History), extendWindow(cfg.Epochs)
	if n <= cfg.Epochs || n > cfg.MaxEpochs {
		t.Fatalf("trained %d epochs; want more than %d (still learning here) and at most %d", n, cfg.Epochs, cfg.MaxEpochs)
	}
	for e := range cfg.Epochs {
		if m.History[e].CrossEntropy != plain.History[e].CrossEntropy || m.History[e].ValidationAccuracy != plain.History[e].ValidationAccuracy {
			t.Fatalf("epoch %d differs from the model trained without MaxEpochs: %+v against %+v", e+1, m.History[e], plain.History[e])
		}
	}
	since, top := 0, math.Inf(-1)
	for _, e := range m.History {
		if e.ValidationAccuracy > top {
			since, top = 0, e.ValidationAccuracy
		} else {
			since++
		}
		switch {
		case e.Epoch < cfg.Epochs || e.Epoch == cfg.MaxEpochs:
		case e.Epoch < n && since >= w:
			t.Fatalf("went on past epoch %d, whose accuracy had not risen for %d epochs (window %d)", e.Epoch, since, w)
		case e.Epoch == n && since < w:
			t.Fatalf("stopped at epoch %d, whose accuracy rose %d epochs before (window %d)", n, since, w)
		}
	}
	cfg.Validation = 0 // nothing to tell whether it still learns: Epochs
	if m := train(cfg); len(m.History) != cfg.Epochs {
		t.Errorf("without a validation split: %d epochs, want %d", len(m.History), cfg.Epochs)
	}
}

// TestTemplateSolverStops: a cap on CG's iterations, or a looser tolerance, stops each solve
// earlier on the path the full solve takes, so no discrepancy falls below the full one and
// some are higher; both settings are part of the model, so a saved model keeps them.
func TestTemplateSolverStops(t *testing.T) {
	for _, c := range []struct {
		name        string
		full, early func(*TemplateConfig)
		kept        func(TemplateConfig) bool
	}{
		{"one iteration", func(*TemplateConfig) {}, func(c *TemplateConfig) { c.SolverIterations = 1 },
			func(c TemplateConfig) bool { return c.SolverIterations == 1 }},
		{"tolerance 0.5", func(c *TemplateConfig) { c.SolverTolerance = 1e-12 }, func(c *TemplateConfig) { c.SolverTolerance = 0.5 },
			func(c TemplateConfig) bool { return c.SolverTolerance == 0.5 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, labels := ringsOrPairs(t, 8, 3)
			cfg := smallTemplateConfig()
			c.full(&cfg)
			m, err := NewTemplateModel(data, labels, 2, cfg)
			if err != nil {
				t.Fatal(err)
			}
			full, err := m.Discrepancies(context.Background(), data, 1)
			if err != nil {
				t.Fatal(err)
			}
			c.early(&m.Config)
			early, err := m.Discrepancies(context.Background(), data, 1)
			if err != nil {
				t.Fatal(err)
			}
			higher := 0
			r, k := full.Dims()
			for i := range r {
				for j := range k {
					if early.At(i, j) < full.At(i, j)-1e-12 {
						t.Fatalf("graph %d, template %d: stopped early %v, under the full %v", i, j, early.At(i, j), full.At(i, j))
					}
					if early.At(i, j) > full.At(i, j)+1e-9 {
						higher++
					}
				}
			}
			if higher == 0 {
				t.Error("stopping early gave every full discrepancy")
			}
			var buf bytes.Buffer
			if err := m.Encode(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := DecodeTemplates(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if !c.kept(back.Config) {
				t.Errorf("the setting read back as %+v", back.Config)
			}
		})
	}
	if DefaultTemplateConfig().SolverTolerance != DefaultTemplateSolverTolerance {
		t.Error("the default config does not carry the default tolerance")
	}
}

// Learned node weights start uniform, move in training, stay a distribution, and the model
// file keeps them: the model read back embeds graphs exactly as the trained one. A file whose
// logits do not fit its templates is refused.
func TestTemplateNodeWeightsLearned(t *testing.T) {
	data, labels := ringsOrPairs(t, 12, 5)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.LearnNodeWeights = 5, true
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for k, tg := range m.Templates {
		w := tg.Weights()
		sum := 0.0
		for _, x := range w {
			if !(x > 0) {
				t.Fatalf("template %d: node weight %v", k, x)
			}
			sum += x
			if math.Abs(x-1/float64(len(w))) > 1e-4 {
				moved++
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("template %d: weights sum to %v", k, sum)
		}
	}
	if moved == 0 {
		t.Error("no node weight moved from uniform")
	}
	want, err := m.Discrepancies(context.Background(), data, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	back, err := DecodeTemplates(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Discrepancies(context.Background(), data, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) {
		t.Error("the model read back embeds graphs differently")
	}
	p := m.payload()
	p.Templates[0].Logits = p.Templates[0].Logits[1:]
	if _, err := p.model(); err == nil {
		t.Error("logits of the wrong length were read")
	}
}

// With BalanceWeight the feature weight is FeatureWeight times the balanced one (the structure
// and feature costs of equal mean over the graphs as read), the model keeps the product, and
// features in other units (ten times larger) give a weight a hundred times smaller and the same
// discrepancies: the units of the attributes no longer decide how much they count.
func TestTemplateBalancedWeight(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 10, 5)
	withFeatures := func(scale float64) []*graphs.Graph {
		rng := rand.New(rand.NewPCG(7, 1))
		out := make([]*graphs.Graph, len(data))
		for i, g := range data {
			c := *g
			c.F = mat.NewDense(g.N(), 3, nil)
			for r := 0; r < g.N(); r++ {
				for j := 0; j < 3; j++ {
					c.F.Set(r, j, scale*(float64(j)+rng.NormFloat64()))
				}
			}
			out[i] = &c
		}
		return out
	}
	cfg := smallTemplateConfig()
	cfg.NodeFeatures, cfg.BalanceWeight, cfg.FeatureWeight = NodeFeaturesData, true, 2
	var weights []float64
	var ds []*mat.Dense
	for _, scale := range []float64{1, 10} {
		d := withFeatures(scale)
		m, err := NewTemplateModel(d, labels, 2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pairwise.BalanceFeatures(graphs.Slice(d))
		if err != nil {
			t.Fatal(err)
		}
		if m.Config.BalanceWeight || math.Abs(m.FeatureWeight()-2*b.Weight) > 1e-12*b.Weight {
			t.Errorf("scale %v: weight %v (balance_weight %v kept), want 2 × the balanced %v, resolved", scale, m.FeatureWeight(), m.Config.BalanceWeight, b.Weight)
		}
		dist, err := m.Discrepancies(context.Background(), d, 1)
		if err != nil {
			t.Fatal(err)
		}
		weights, ds = append(weights, m.FeatureWeight()), append(ds, dist)
	}
	if r := weights[0] / weights[1]; math.Abs(r-100) > 1e-9 {
		t.Errorf("weights %v: ratio %v, want 100", weights, r)
	}
	if !mat.EqualApprox(ds[0], ds[1], 1e-9) {
		t.Errorf("discrepancies differ with the features' units:\n%v\n%v", mat.Formatted(ds[0]), mat.Formatted(ds[1]))
	}
	cfg.FeatureWeight = 0 // no features: nothing to balance
	if m, err := NewTemplateModel(withFeatures(1), labels, 2, cfg); err != nil || m.FeatureWeight() != 0 {
		t.Errorf("feature weight 0 with BalanceWeight: weight %v, %v", m.FeatureWeight(), err)
	}
}
