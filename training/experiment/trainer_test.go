package experiment

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// countingTrainer trains the paper's model and counts its calls.
type countingTrainer struct{ calls *int }

func (s countingTrainer) Name() string { return "counting" }

func (s countingTrainer) Train(ctx context.Context, data []*graphs.Graph, cfg training.Config, opt training.Options) (*training.Model, error) {
	*s.calls++
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return nil, err
	}
	if err := training.Fit(ctx, m, graphs.Slice(data), opt); err != nil {
		return nil, err
	}
	return m, nil
}

// TestRunWithTrainer: the trainer trains every run (here the paper's model: the same scores);
// its name is in the report and the records, so runs saved without it are not reused with it,
// nor the other way round; a baseline refuses a trainer.
func TestRunWithTrainer(t *testing.T) {
	ds := mutag(t, 20)
	dir := filepath.Join(t.TempDir(), "cell")
	calls := 0
	var events []training.Event
	plain := Options{Config: tiny(), Runs: 2, Dir: dir, Observe: keepMessages(&events)}
	ref, err := Run(context.Background(), ds, plain)
	if err != nil {
		t.Fatal(err)
	}
	withT := plain
	withT.Trainer = countingTrainer{calls: &calls}
	rep, err := Run(context.Background(), ds, withT)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || rep.Trainer != "counting" || !strings.Contains(rep.describe(), "counting") {
		t.Errorf("trainer called %d times (want 2: the plain runs are not reused), report trainer %q, %q", calls, rep.Trainer, rep.describe())
	}
	for r := range ref.Runs { // the same model: the same scores
		if a, b := ref.Runs[r], rep.Runs[r]; a.Accuracy != b.Accuracy || a.AccuracyZ != b.AccuracyZ || a.NMI != b.NMI {
			t.Errorf("run %d: %+v with the trainer, %+v without", r, b, a)
		}
	}
	if _, err := Run(context.Background(), ds, withT); err != nil || calls != 2 {
		t.Errorf("rerun with the trainer: %v, %d calls (want its runs reused)", err, calls)
	}
	if got, err := ReadReport(dir); err != nil || got.Trainer != "counting" {
		t.Errorf("report.json: trainer %q, %v", got.Trainer, err)
	}
	events = nil
	if rep, err = Run(context.Background(), ds, plain); err != nil || rep.Trainer != "" {
		t.Fatalf("plain rerun: %v, trainer %q", err, rep.Trainer)
	}
	if n := strings.Count(strings.Join(eventMessages(events), "\n"), "other data or settings"); n != 2 {
		t.Errorf("plain rerun after the trainer's runs: %d runs said to be made with other settings, want 2: %v", n, events)
	}

	bad := Options{Config: tiny(), Trainer: shortTrainer{}}
	if _, err := Run(context.Background(), ds, bad); err == nil || !strings.Contains(err.Error(), "19×2 embeddings for 20 graphs") {
		t.Errorf("a trainer whose model has no embedding per graph: %v", err)
	}
	if _, err := Run(context.Background(), ds, Options{Method: FGWK, Config: tiny(), Trainer: withT.Trainer}); err == nil {
		t.Error("a trainer with the FGWK baseline: no error")
	}
}

// shortTrainer returns a model with one embedding fewer than the graphs.
type shortTrainer struct{}

func (shortTrainer) Name() string { return "short" }

func (shortTrainer) Train(_ context.Context, data []*graphs.Graph, cfg training.Config, _ training.Options) (*training.Model, error) {
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return nil, err
	}
	r, c := m.Z.Dims()
	m.Z = mat.DenseCopyOf(m.Z.Slice(0, r-1, 0, c))
	return m, nil
}

// keepMessages is an observer that keeps the messages among the events.
func keepMessages(events *[]training.Event) training.Observer {
	return func(e training.Event) {
		if e.Message != "" {
			*events = append(*events, e)
		}
	}
}

func eventMessages(events []training.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Message)
	}
	return out
}

// TestValidate: zero fields take their defaults; out-of-range work and a trainer where it
// cannot apply are refused.
func TestValidate(t *testing.T) {
	if err := (Options{}).Validate(); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	var calls int
	for name, o := range map[string]Options{
		"runs":                     {Runs: MaxRuns + 1},
		"iterations":               {Iterations: MaxIterations + 1},
		"clusters":                 {Clusters: -1},
		"trainer of a baseline":    {Method: FGWK, Trainer: countingTrainer{calls: &calls}},
		"trainer skips non-finite": {SkipNonFinite: true, Trainer: countingTrainer{calls: &calls}},
	} {
		if err := o.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
