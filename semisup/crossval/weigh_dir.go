package crossval

import (
	"fmt"
	"path/filepath"

	"github.com/gwf-graphs/gwf/semisup"
)

// weighedRecord is a weighed fold (WeighedFold) as kept in SVMSpec.ReportDir: the settings and
// data it was computed with, and its result.
type weighedRecord struct {
	Format    string                 `json:"format"`
	Config    semisup.TemplateConfig `json:"config"`
	Folds     int                    `json:"folds"`
	Seed      uint64                 `json:"fold_seed"`
	Inner     int                    `json:"inner_folds"`
	InnerSeed uint64                 `json:"inner_seed"`
	Labels    string                 `json:"labels"` // labelsFingerprint of the data's labels
	Graphs    int                    `json:"graphs"`
	// SVM is the FGW-SVM's inner accuracy the fold was weighed against: a rerun whose FGW-SVM
	// chose otherwise weighs the fold again. Rule names the decision's rule (weighRule).
	SVM    float64     `json:"svm_accuracy"`
	Rule   string      `json:"rule"`
	Result WeighedFold `json:"result"`
}

const weighedFormat = "gwf-weighed-fold"

// weighRule names the rule of weigh, so that a fold decided under another rule is weighed again.
const weighRule = "templates above the FGW-SVM's inner accuracy by more than a standard error"

func weighedPath(dir string, f int) string {
	return filepath.Join(dir, fmt.Sprintf("weighed-fold%d.json", f))
}

// savedWeighed returns fold f (1-based) of dir when it was weighed with the settings and data
// of want; ok is false otherwise (no file, other settings, a damaged file: the fold is weighed
// again and the file replaced).
func savedWeighed(dir string, f int, want weighedRecord) (WeighedFold, bool) {
	var got weighedRecord
	if !readKept(weighedPath(dir, f), &got) || got.Format != weighedFormat {
		return WeighedFold{}, false
	}
	r := got.Result
	got.Result, want.Result, want.Format = WeighedFold{}, WeighedFold{}, weighedFormat
	if !sameKept(got, want) || r.Fold != f || !(r.Accuracy >= 0 && r.Accuracy <= 1) || len(r.Graphs) != len(r.Predictions) {
		return WeighedFold{}, false
	}
	return r, true
}

// saveWeighed writes a weighed fold atomically.
func saveWeighed(dir string, rec weighedRecord) error {
	rec.Format = weighedFormat
	return writeKept(weighedPath(dir, rec.Result.Fold), rec)
}
