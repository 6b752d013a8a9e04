package crossval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gwf-graphs/gwf/internal/meanstd"
)

// Pooled is what Pool returns: each report's summary, then that of all their folds together.
type Pooled struct {
	Reports []PooledRun `json:"reports"`
	Pooled  PooledRun   `json:"pooled"`
}

// PooledRun summarises the folds of one report (File, Seed), or of all (File empty, Seed 0).
// Baselines, for reports of the GWF model that have them, are the baselines on the same folds.
type PooledRun struct {
	File      string   `json:"file,omitempty"`
	Seed      uint64   `json:"seed,omitempty"`
	Version   string   `json:"gwf_version,omitempty"` // the build that made the report
	Folds     int      `json:"folds"`
	Accuracy  MeanStd  `json:"accuracy"`
	Baselines *Summary `json:"baselines,omitempty"`
	// Confusion is the report's confusion matrix, or for all, their sum (nil where a report
	// has none, or their classes differ).
	Confusion *ConfusionMatrix `json:"confusion,omitempty"`
}

// ErrMismatch is wrapped by Pool's error for reports that cannot be pooled: of both
// classifiers, or of settings that differ in more than their seeds.
var ErrMismatch = errors.New("reports of different settings")

// Pool summarises the reports reps (read from files, the names it reports them by) each and all
// their folds together. They must be of one classifier and of the same data and settings but
// for the seed: training.Config.Seed and the selection's seed of the GWF model, the fold seed
// of the SVM's, the fold seed and the model's seed of the template model's and lambda-svm's;
// otherwise the error (ErrMismatch) names the first that differs and where.
func Pool(files []string, reps []Report) (Pooled, error) {
	if len(reps) == 0 || len(files) != len(reps) {
		return Pooled{}, fmt.Errorf("pool: %d reports for %d files", len(reps), len(files))
	}
	var out Pooled
	var allGWF []FoldResult
	var allOthers []float64 // the SVM's or the template model's fold accuracies
	for i, rep := range reps {
		if rep.Method != reps[0].Method {
			return Pooled{}, fmt.Errorf("%w: %s is a report of %s, %s of %s: pool reports of one classifier", ErrMismatch, files[i], commandOf(rep.Method), files[0], commandOf(reps[0].Method))
		}
		if err := sameSettings(reps[0], rep, files[0], files[i]); err != nil {
			return Pooled{}, err
		}
		var run PooledRun
		if rep.GWF != nil {
			run = summariseGWF(rep.GWF.Folds)
			run.Seed, run.Version = rep.GWF.Config.Seed, rep.GWF.Version
			allGWF = append(allGWF, rep.GWF.Folds...)
		} else if rep.SVM != nil {
			xs := rep.SVM.FoldAccuracies()
			run = summarise(xs)
			run.Seed, run.Version = rep.SVM.Settings.Grid.Seed, rep.SVM.Version
			allOthers = append(allOthers, xs...)
		} else if rep.LambdaSVM != nil {
			xs := rep.LambdaSVM.FoldAccuracies()
			run = summarise(xs)
			run.Seed, run.Version = rep.LambdaSVM.FoldSeed, rep.LambdaSVM.Version
			allOthers = append(allOthers, xs...)
		} else {
			xs := rep.Templates.FoldAccuracies()
			run = summarise(xs)
			run.Seed = rep.Templates.FoldSeed
			allOthers = append(allOthers, xs...)
		}
		run.File, run.Confusion = files[i], rep.confusion()
		out.Reports = append(out.Reports, run)
	}
	if reps[0].GWF != nil {
		out.Pooled = summariseGWF(allGWF)
	} else {
		out.Pooled = summarise(allOthers)
	}
	out.Pooled.Confusion = sumConfusion(out.Reports)
	return out, nil
}

// confusion is the report's confusion matrix, of any classifier.
func (r Report) confusion() *ConfusionMatrix {
	switch {
	case r.GWF != nil:
		return r.GWF.Confusion
	case r.SVM != nil:
		return r.SVM.Confusion
	case r.LambdaSVM != nil:
		return r.LambdaSVM.Confusion
	}
	return r.Templates.Confusion
}

// sumConfusion adds the runs' confusion matrices: nil where one has none or names other classes.
func sumConfusion(runs []PooledRun) *ConfusionMatrix {
	if len(runs) == 0 || runs[0].Confusion == nil {
		return nil
	}
	first := runs[0].Confusion
	sum := &ConfusionMatrix{Classes: first.Classes, Counts: make([][]int, len(first.Counts))}
	for c, row := range first.Counts {
		sum.Counts[c] = make([]int, len(row))
	}
	for _, r := range runs {
		m := r.Confusion
		if m == nil || !slices.Equal(m.Classes, first.Classes) || len(m.Counts) != len(sum.Counts) {
			return nil
		}
		for c, row := range m.Counts {
			if len(row) != len(sum.Counts[c]) {
				return nil
			}
			for k, n := range row {
				sum.Counts[c][k] += n
			}
		}
	}
	return sum
}

// Versions are the distinct builds of gwf that made the pooled reports, in the reports'
// order ("" for a report from before reports recorded it): more than one is worth a warning.
func (p Pooled) Versions() []string {
	var out []string
	for _, r := range p.Reports {
		if !slices.Contains(out, r.Version) {
			out = append(out, r.Version)
		}
	}
	return out
}

// commandOf names the command whose reports are of method.
func commandOf(method string) string {
	switch method {
	case MethodSVM:
		return "'gwf classify'"
	case MethodGWF:
		return "'gwf semisup --method gwf'"
	case MethodTemplates:
		return "'gwf semisup'"
	case MethodLambdaSVM:
		return "'gwf semisup --method lambda-svm'"
	}
	return "method " + method
}

func summariseGWF(folds []FoldResult) PooledRun {
	return PooledRun{Folds: len(folds), Accuracy: FoldAccuracy(folds), Baselines: Summarize(folds)}
}

func summarise(xs []float64) PooledRun {
	m, s := meanstd.Of(xs)
	return PooledRun{Folds: len(xs), Accuracy: MeanStd{Mean: m, Std: s}}
}

// sameSettings says whether the reports a and b (of the files fa and fb) can be pooled.
func sameSettings(a, b Report, fa, fb string) error {
	ka, kb := settingsKey(a), settingsKey(b)
	for i := range ka {
		ja, err1 := json.Marshal(ka[i].value)
		jb, err2 := json.Marshal(kb[i].value)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("pool: comparing %s: %v %v", ka[i].name, err1, err2)
		}
		if !bytes.Equal(ja, jb) {
			da, db := difference(ja, jb)
			return fmt.Errorf("%w: %s and %s differ in %s (%s against %s): pool runs of one setting that differ in their seed only", ErrMismatch, fa, fb, ka[i].name, da, db)
		}
	}
	return nil
}

type namedValue struct {
	name  string
	value any
}

// settingsKey is what must agree between reports to pool, in the order differences are named.
func settingsKey(r Report) []namedValue {
	if s := r.SVM; s != nil {
		settings := s.Settings
		settings.Grid.Seed = 0
		return []namedValue{{"dataset", s.Dataset}, {"graphs", s.Graphs}, {"classes", s.Classes}, {"folds", len(s.Folds)},
			{"node features", s.Features}, {"settings", settings}}
	}
	if l := r.LambdaSVM; l != nil {
		cfg := l.Config
		cfg.Seed = 0
		return []namedValue{{"dataset", l.Dataset}, {"graphs", l.Graphs}, {"classes", l.Classes}, {"folds", len(l.Folds)},
			{"node features", l.Features}, {"GWF settings (config)", cfg}, {"SVM settings", l.Spec}}
	}
	if t := r.Templates; t != nil {
		cfg := t.Config
		cfg.Seed = 0
		return []namedValue{{"dataset", t.Dataset}, {"graphs", t.Graphs}, {"classes", t.Classes}, {"folds", len(t.Folds)},
			{"template settings (config)", cfg}}
	}
	g := r.GWF
	cfg := g.Config
	cfg.Seed = 0
	var sel *Selection
	if g.Selection != nil {
		s := *g.Selection
		s.Seed = 0
		sel = &s
	}
	return []namedValue{{"dataset", g.Dataset}, {"graphs", g.Graphs}, {"classes", g.Classes}, {"folds", len(g.Folds)},
		{"GWF settings (config)", cfg}, {"head and encoder (semisup)", g.Semisup}, {"selection", sel}, {"baselines", g.Baselines != nil}}
}

// difference shows where the JSON values a and b first differ: each from a few bytes before
// that point, cut after some more.
func difference(a, b []byte) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-30)
	show := func(x []byte) string {
		s, end := string(x[from:]), ""
		if len(s) > 90 {
			s, end = s[:90], "..."
		}
		if from > 0 {
			s = "..." + s
		}
		return s + end
	}
	return show(a), show(b)
}
