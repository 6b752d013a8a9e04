package crossval_test

import (
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// Two reports of `gwf classify --json` (here written by hand: an SVM cross-validation of two
// folds for each of two fold seeds) pool into the mean ± std of their four folds.
func ExamplePool() {
	report := func(seed int, accs string) string {
		return fmt.Sprintf(`{"dataset": "MUTAG", "graphs": 188, "classes": 2, "method": "fgw-svm",
			"settings": {"grid": {"folds": 5, "seed": %d}}, "folds": [%s]}`, seed, accs)
	}
	var reps []crossval.Report
	for seed, accs := range []string{`{"accuracy": 0.8}, {"accuracy": 0.9}`, `{"accuracy": 0.85}, {"accuracy": 0.95}`} {
		rep, err := crossval.Read(strings.NewReader(report(seed+1, accs)))
		if err != nil {
			fmt.Println(err)
			return
		}
		reps = append(reps, rep)
	}
	p, err := crossval.Pool([]string{"seed1.json", "seed2.json"}, reps)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d folds: %.3f ± %.3f\n", p.Pooled.Folds, p.Pooled.Accuracy.Mean, p.Pooled.Accuracy.Std)
	// Output: 4 folds: 0.875 ± 0.065
}
