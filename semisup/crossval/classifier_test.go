package crossval

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

// TestClassifierFiles: a saved classifier of either kind is recognised, read with its
// features' encoding, and predicts the graphs with the data's own class names; an SVM refuses
// transform steps; a file of neither kind is an error.
func TestClassifierFiles(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	ds.ClassNames = []string{"cycle", "path"}
	for i, g := range ds.Graphs {
		g.Label, g.HasLabel = labels[i], true
	}
	dir := t.TempDir()
	set := fgwsvm.Settings{
		Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
		Grid:       fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 2, Seed: 1},
	}
	svm, _, err := TrainSVM(context.Background(), ds, labels, 2, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.AtomSize, cfg.Epochs = 2, 4, 1
	gwf, err := NewGWFModel(ds, 2, cfg, semisup.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]interface{ Save(string) error }{"svm": svm, "gwf": gwf}
	for kind, m := range paths {
		path := filepath.Join(dir, kind+".classifier")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		c, err := LoadClassifier(path)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if (c.SVM != nil) != (kind == "svm") || (c.GWF != nil) != (kind == "gwf") || c.Features() == nil || c.Features().Kind != ds.Encoding.Kind {
			t.Fatalf("%s: read as %+v, features %v", kind, c, c.Features())
		}
		var said []string
		opt := PredictOptions{Observe: func(e training.Event) {
			if e.Message != "" {
				said = append(said, e.Message)
			}
		}}
		p, err := c.Predict(context.Background(), ds, opt)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if !reflect.DeepEqual(p.Classes, []any{"cycle", "path"}) || len(p.Predictions) != len(ds.Graphs) || p.Score == nil || len(said) == 0 {
			t.Fatalf("%s: classes %v, %d predictions, score %v, said %q", kind, p.Classes, len(p.Predictions), p.Score, said)
		}
		if kind == "svm" && p.Score.Accuracy < 0.9 {
			t.Errorf("the SVM predicts its own training graphs at %v", p.Score.Accuracy)
		}
		if _, err := c.Predict(context.Background(), ds, PredictOptions{Steps: 3}); (err != nil) != (kind == "svm") {
			t.Errorf("%s with transform steps: %v", kind, err)
		}
	}
	if _, err := LoadClassifier(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file: no error")
	}
}

// TestLoadClassifierNotAModelFile: a directory, an empty file and random bytes given for a
// classifier (gwf predict --model) are each named for what they are, not called corrupt.
func TestLoadClassifierNotAModelFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string // "DIR": a directory
		want    string
	}{
		{"a directory", "DIR", "X is a directory, not a gwf model file"},
		{"empty", "", "X is empty (0 bytes), not a gwf model file"},
		{"random bytes", "\x8f\x12\x00\xffq\x03\x9a", "X is not a gwf model file (it does not start with gwf's header)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "X")
			var err error
			if tc.content == "DIR" {
				err = os.Mkdir(p, 0o755)
			} else {
				err = os.WriteFile(p, []byte(tc.content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = LoadClassifier(p)
			if want := filepath.Join(filepath.Dir(p), tc.want); err == nil || err.Error() != want {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}
