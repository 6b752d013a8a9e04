package fgwsvm

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoAutodiff: the classifiers on discrepancies and what they build on (the SVM, the
// pairwise matrices, K-means) import no Gorgonia, nor the trainer or the semi-supervised model
// that bring it.
func TestNoAutodiff(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".", "../svm", "../../layers/pairwise", "../../training/cluster").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "gorgonia.org/") || p == "github.com/gwf-graphs/gwf/training" || p == "github.com/gwf-graphs/gwf/semisup" {
			t.Errorf("imports %s", p)
		}
	}
}
