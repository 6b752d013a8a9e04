package experiment

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
	"github.com/sbinet/npyio/npz"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
)

// mutag returns n MUTAG graphs spread over the file (it is sorted by class).
func mutag(t *testing.T, n int) *graphs.Dataset {
	t.Helper()
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sub := make([]*graphs.Graph, n)
	for i := range sub {
		sub[i] = ds.Graphs[i*len(ds.Graphs)/n]
	}
	ds.Graphs = sub
	return ds
}

// tiny is a quick configuration.
func tiny() training.Config {
	c := training.DefaultConfig()
	c.Atoms, c.Layers, c.Epochs = 2, 3, 1
	return c
}

func TestRunScoresEveryRun(t *testing.T) {
	ds := mutag(t, 24)
	rep, err := Run(context.Background(), ds, Options{Config: tiny(), Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Graphs != 24 || rep.Classes != 2 || rep.Clusters != 2 || len(rep.Runs) != 2 || rep.Embedding != "lambda" {
		t.Fatalf("report header %+v", rep)
	}
	for i, r := range rep.Runs {
		if r.Seed != uint64(1+i) || r.Epochs != 1 || len(r.Loss) != 1 || len(r.Assign) != 24 {
			t.Errorf("run %d: %+v", i, r)
		}
		// The best matching of 2 clusters to 2 classes is right at least half of the time.
		if r.Accuracy < 0.5 || r.Accuracy > 1 || r.Accuracy != r.AccuracyLambda {
			t.Errorf("run %d: accuracy %v (λ %v)", i, r.Accuracy, r.AccuracyLambda)
		}
	}
	if want := (rep.Runs[0].Accuracy + rep.Runs[1].Accuracy) / 2; rep.Accuracy.Mean != want {
		t.Errorf("mean accuracy %v, want %v", rep.Accuracy.Mean, want)
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"clustering lambda", "mean ± std over 2 run(s)", "accuracy (λ)"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

// The same seed gives the same runs, whatever the number of workers.
func TestRunDeterministic(t *testing.T) {
	ds := mutag(t, 16)
	a, err := Run(context.Background(), ds, Options{Config: tiny(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), ds, Options{Config: tiny(), Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if a.Runs[0].Loss[0] != b.Runs[0].Loss[0] || a.Runs[0].Accuracy != b.Runs[0].Accuracy {
		t.Errorf("1 worker: loss %v acc %v; 3 workers: loss %v acc %v", a.Runs[0].Loss, a.Runs[0].Accuracy, b.Runs[0].Loss, b.Runs[0].Accuracy)
	}
}

// A rerun with the same Dir reuses the runs saved there (a killed 5-run experiment continues
// where it stopped) and trains again those made with other settings or damaged.
func TestRunReusesSavedRuns(t *testing.T) {
	ds := mutag(t, 20)
	dir := filepath.Join(t.TempDir(), "cell")
	var events []training.Event
	opt := Options{Config: tiny(), Runs: 1, Dir: dir, Observe: keepMessages(&events)}
	if _, err := Run(context.Background(), ds, opt); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run0.json", "embeddings-run0.csv", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	// Mark the saved run, so a reuse can be told from a retraining.
	p := filepath.Join(dir, "run0.json")
	var rec map[string]any
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	rec["run"].(map[string]any)["seconds"] = 12345.0
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	said := func(s string) bool {
		for _, e := range events {
			if strings.Contains(e.Message, s) {
				return true
			}
		}
		return false
	}

	opt.Runs = 2
	events = nil
	rep, err := Run(context.Background(), ds, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Runs; s[0].Seconds != 12345 || s[1].Seconds == 12345 || !said("reusing") {
		t.Errorf("rerun with 2 runs: seconds %v and %v, want run 0 reused (12345) and run 1 trained; events %v", s[0].Seconds, s[1].Seconds, events)
	}
	if got, err := ReadReport(dir); err != nil || len(got.Runs) != 2 || got.Runs[0].Seconds != 12345 {
		t.Errorf("report.json: %v, %v", got, err)
	}

	// Other settings: the saved run is not reused, and a warning says why.
	other := opt
	other.Runs, other.Config.LearningRate = 1, 0.01
	events = nil
	if rep, err = Run(context.Background(), ds, other); err != nil {
		t.Fatal(err)
	}
	if rep.Runs[0].Seconds == 12345 || !said("other data or settings") {
		t.Errorf("another learning rate: seconds %v, events %v", rep.Runs[0].Seconds, events)
	}
	// Other data: not reused either.
	events = nil
	if _, err = Run(context.Background(), mutag(t, 21), Options{Config: tiny(), Dir: dir, Observe: opt.Observe}); err != nil {
		t.Fatal(err)
	}
	if !said("other data or settings") {
		t.Errorf("other data: events %v", events)
	}

	// A damaged record is trained again, not an error.
	if err := os.WriteFile(p, []byte(`{"data": "tr`), 0o644); err != nil {
		t.Fatal(err)
	}
	events = nil
	if _, err = Run(context.Background(), ds, opt); err != nil {
		t.Fatal(err)
	}
	if !said("run0.json") {
		t.Errorf("no warning for the damaged record: %v", events)
	}
}

func TestRunBaselines(t *testing.T) {
	ds := mutag(t, 16)
	cfg := tiny()
	cfg.Layers = 10
	for _, m := range []Method{FGWK, GWBKM} {
		rep, err := Run(context.Background(), ds, Options{Method: m, Config: cfg, Runs: 2, Iterations: 3})
		if err != nil {
			t.Fatal(m, err)
		}
		if rep.Method != m || len(rep.Runs) != 2 || rep.GWDs <= 0 {
			t.Fatalf("%s: %+v", m, rep)
		}
		for _, r := range rep.Runs {
			if r.Accuracy < 0.5 || r.Accuracy > 1 || r.GWDs <= 0 || len(r.Assign) != 16 {
				t.Errorf("%s: run %+v", m, r)
			}
		}
		if m == FGWK && rep.GWDs != 16*15/2 {
			t.Errorf("fgwk: %d GWDs, want %d", rep.GWDs, 16*15/2)
		}
	}
}

// Unlabelled graphs are clustered into Options.Clusters groups and not scored.
func TestRunUnlabelled(t *testing.T) {
	ds := mutag(t, 12)
	for _, g := range ds.Graphs {
		g.HasLabel, g.Label = false, 0
	}
	ds.Graphs[0].HasLabel = true
	if _, err := Run(context.Background(), ds, Options{Config: tiny(), Clusters: 2}); err == nil || !strings.Contains(err.Error(), "11 of 12") {
		t.Errorf("one graph labelled: error %v", err)
	}
	ds.Graphs[0].HasLabel = false
	if _, err := Run(context.Background(), ds, Options{Config: tiny()}); err == nil || !strings.Contains(err.Error(), "number of clusters") {
		t.Errorf("no labels, no clusters: error %v", err)
	}
	rep, err := Run(context.Background(), ds, Options{Config: tiny(), Clusters: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Scored() || rep.Clusters != 3 || len(rep.Runs[0].Assign) != 12 {
		t.Errorf("report %+v", rep)
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "accuracy") {
		t.Errorf("unscored table shows accuracies:\n%s", table.String())
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), "accuracy") || strings.Contains(js.String(), "nmi") || !strings.Contains(js.String(), `"unlabelled": true`) {
		t.Errorf("unscored JSON:\n%s", js.String())
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	ds := mutag(t, 8)
	zeroEpochs := tiny()
	zeroEpochs.Epochs = 0
	for name, opt := range map[string]Options{
		"method":     {Method: "spectral"},
		"runs":       {Runs: -1},
		"clusters":   {Clusters: 9},
		"embedding":  {Embedding: "logits"},
		"epochs":     {Config: zeroEpochs},
		"iterations": {Iterations: -2},
	} {
		if _, err := Run(context.Background(), ds, opt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Run(context.Background(), &graphs.Dataset{Name: "empty"}, Options{}); err == nil {
		t.Error("no graphs: no error")
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, mutag(t, 8), Options{Config: tiny()})
	if rep != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: report %v, error %v", rep, err)
	}
}

// Cancelled after the first of three runs: the report of that run, marked, and the error.
func TestRunInterruptedAfterARun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{Config: tiny(), Runs: 3, Observe: func(e training.Event) {
		if strings.HasPrefix(e.Message, "accuracy") {
			cancel()
		}
	}}
	rep, err := Run(ctx, mutag(t, 8), opt)
	if !errors.Is(err, context.Canceled) || rep == nil || !rep.Interrupted || len(rep.Runs) != 1 {
		t.Errorf("report %+v, error %v", rep, err)
	}
}

// The CSV names every graph and gives the dataset's own labels (MUTAG's -1 and 1).
func TestEmbeddingsCSV(t *testing.T) {
	ds := mutag(t, 4)
	rows := [][]float64{{0.25, 0.75}, {1, 0}, {0.5, 0.5}, {0, 1}}
	e := NewEmbeddings(ds, training.EmbeddingLambda, rows)
	e.Assign = []int{0, 1, 0, 1}
	var b bytes.Buffer
	if err := e.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "graph,label,cluster,lambda0,lambda1" || len(lines) != 5 {
		t.Fatalf("CSV:\n%s", b.String())
	}
	for i, g := range ds.Graphs {
		want := g.Name + "," + []string{"-1", "1"}[g.Label] + ","
		if !strings.HasPrefix(lines[1+i], want) {
			t.Errorf("row %d: %q, want it to start with %q", i, lines[1+i], want)
		}
	}
	if !strings.HasSuffix(lines[1], ",0,0.25,0.75") {
		t.Errorf("row 0: %q", lines[1])
	}
	e.Assign = e.Assign[:2]
	if err := e.WriteCSV(&b); err == nil {
		t.Error("2 clusters for 4 rows: no error")
	}
}

// The .npz archive holds what the CSV holds, in arrays numpy reads (read back here with the
// same library's reader).
func TestEmbeddingsNPZ(t *testing.T) {
	ds := mutag(t, 3)
	e := NewEmbeddings(ds, training.EmbeddingZ, [][]float64{{1, -2}, {0.5, 3}, {-1, 0}})
	e.Assign = []int{2, 0, 1}
	var b bytes.Buffer
	if err := e.WriteNPZ(&b); err != nil {
		t.Fatal(err)
	}
	r, err := npz.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var m mat.Dense
	if err := r.Read("embeddings.npy", &m); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(&m, mat.NewDense(3, 2, []float64{1, -2, 0.5, 3, -1, 0})) {
		t.Errorf("embeddings %v", mat.Formatted(&m))
	}
	var names, labels []string
	var clusters []int64
	for name, ptr := range map[string]any{"graphs.npy": &names, "labels.npy": &labels, "clusters.npy": &clusters} {
		if err := r.Read(name, ptr); err != nil {
			t.Fatal(name, err)
		}
	}
	for i, g := range ds.Graphs {
		names[i], labels[i] = fromUTF32(names[i]), fromUTF32(labels[i])
		if names[i] != g.Name || labels[i] != LabelText(ds, g) || clusters[i] != int64(e.Assign[i]) {
			t.Errorf("graph %d: %q %q %d, want %q %q %d", i, names[i], labels[i], clusters[i], g.Name, LabelText(ds, g), e.Assign[i])
		}
	}
	var one bytes.Buffer
	if err := e.WriteNPY(&one); err != nil {
		t.Fatal(err)
	}
	var back mat.Dense
	if err := npy.Read(&one, &back); err != nil || !mat.Equal(&back, &m) {
		t.Errorf("npy: %v, %v", err, mat.Formatted(&back))
	}
	if err := (Embeddings{}).WriteNPZ(&b); err == nil {
		t.Error("no embeddings: no error")
	}
}

// fromUTF32 decodes a NumPy <U string as npyio v0.6.0's reader returns it: the raw
// little-endian UTF-32 code units, zero-padded (its writer encodes them as numpy does).
func fromUTF32(s string) string {
	var out []rune
	for i := 0; i+4 <= len(s); i += 4 {
		if r := rune(binary.LittleEndian.Uint32([]byte(s[i : i+4]))); r != 0 {
			out = append(out, r)
		}
	}
	return string(out)
}

// Clustering a trained model gives the scores Run gives for the same seed (Run is training
// followed by exactly this), and refuses embeddings of the wrong shape.
func TestClusterModelMatchesRun(t *testing.T) {
	ds := mutag(t, 20)
	rep, err := Run(context.Background(), ds, Options{Config: tiny()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := training.NewModel(graphs.Slice(ds.Graphs), tiny())
	if err != nil {
		t.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(ds.Graphs), training.Options{}); err != nil {
		t.Fatal(err)
	}
	got, e, err := Cluster(m, ds, m.Z, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := rep.Runs[0]
	if r := got.Runs[0]; r.Accuracy != want.Accuracy || r.AccuracyZ != want.AccuracyZ || r.NMI != want.NMI || r.Loss[0] != want.Loss[0] {
		t.Errorf("Cluster: %+v\nRun: %+v", r, want)
	}
	if len(e.Rows) != 20 || e.Dim() != 2 || len(e.Assign) != 20 || e.Kind != training.EmbeddingLambda {
		t.Errorf("embeddings: %d rows of %d, %d clusters, %s", len(e.Rows), e.Dim(), len(e.Assign), e.Kind)
	}
	if _, _, err := Cluster(m, ds, mat.NewDense(3, 2, nil), Options{}); err == nil {
		t.Error("3 embeddings for 20 graphs: no error")
	}
}

// Embed gives the trained embeddings for the model's own graphs and transforms others.
func TestEmbed(t *testing.T) {
	ds := mutag(t, 12)
	m, err := training.NewModel(graphs.Slice(ds.Graphs), tiny())
	if err != nil {
		t.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(ds.Graphs), training.Options{}); err != nil {
		t.Fatal(err)
	}
	z, transformed, err := Embed(context.Background(), m, ds.Graphs, EmbedOptions{})
	if err != nil || transformed || z != m.Z {
		t.Errorf("training data: transformed %v, same z %v, error %v", transformed, z == m.Z, err)
	}
	other := ds.Graphs[:5]
	z, transformed, err = Embed(context.Background(), m, other, EmbedOptions{Steps: 2})
	if err != nil || !transformed {
		t.Fatalf("other graphs: transformed %v, error %v", transformed, err)
	}
	if r, c := z.Dims(); r != 5 || c != 2 {
		t.Errorf("other graphs: %d×%d embeddings", r, c)
	}
	if _, transformed, _ := Embed(context.Background(), m, ds.Graphs, EmbedOptions{Transform: true, Steps: 1}); !transformed {
		t.Error("Transform: the trained embeddings")
	}
	if _, _, err := Embed(context.Background(), m, other, EmbedOptions{Steps: -1}); err == nil {
		t.Error("-1 steps: no error")
	}
}
