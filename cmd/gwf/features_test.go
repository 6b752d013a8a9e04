package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// writeFeaturedTU writes n two-block graphs as a TU dataset with node labels and one node
// attribute: a node of the first block is labelled values[0], of the second values[g%len], its
// attribute is its degree plus shift.
func writeFeaturedTU(t *testing.T, name string, n int, seed uint64, values []int, shift float64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	var a, ind, gl, nl, attr strings.Builder
	node := 0
	for g := 1; g <= n; g++ {
		size := 6 + rng.IntN(4)
		half := size / 2
		gr, err := graphs.StochasticBlockModel([]int{half, size - half}, [][]float64{{0.9, 0.1}, {0.1, 0.9}}, rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < size; i++ {
			ind.WriteString(strconv.Itoa(g) + "\n")
			v := values[0]
			if i >= half {
				v = values[g%len(values)]
			}
			nl.WriteString(strconv.Itoa(v) + "\n")
			deg := 0
			for j := 0; j < size; j++ {
				if i != j && gr.A.At(i, j) > 0 {
					a.WriteString(strconv.Itoa(node+1+i) + ", " + strconv.Itoa(node+1+j) + "\n")
					deg++
				}
			}
			attr.WriteString(strconv.FormatFloat(float64(deg)+shift, 'g', -1, 64) + "\n")
		}
		node += size
		gl.WriteString(strconv.Itoa(g%2) + "\n")
	}
	for file, text := range map[string]string{"_A.txt": a.String(), "_graph_indicator.txt": ind.String(), "_graph_labels.txt": gl.String(),
		"_node_labels.txt": nl.String(), "_node_attributes.txt": attr.String()} {
		writeFile(t, dir, name+file, text)
	}
	return dir
}

// TestModelsKeepTheirFeatureEncoding: a model keeps how its training data's node features were
// made, and new graphs are encoded the same way without repeating the flags: one-hot columns
// over the training values (a folder with fewer values still fits; an unseen value is a zero
// row, with a warning), standardization with the training data's means and scales (so shards
// may standardize, and give the bytes of one run).
func TestModelsKeepTheirFeatureEncoding(t *testing.T) {
	train := writeFeaturedTU(t, "TRAIN", 16, 1, []int{1, 5, 9}, 0)
	fewer := writeFeaturedTU(t, "FEWER", 6, 2, []int{1, 9}, 0)
	unseen := writeFeaturedTU(t, "UNSEEN", 6, 3, []int{1, 7}, 0)
	dir := t.TempDir()

	classifier := filepath.Join(dir, "labels.classifier")
	mustRun(t, "semisup", "--method", "gwf", "--tu", train, "--features", "labels", "--labeled-fraction", "1", "--output", classifier,
		"--atoms", "3", "--layers", "5", "--epochs", "1", "--hidden", "4", "--head-steps", "20", "-q")
	m, err := semisup.Load(classifier)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.GWF.Features; e == nil || e.Kind != graphs.FeaturesLabels || len(e.NodeLabels) != 3 || e.Standardized() {
		t.Fatalf("classifier's feature encoding %+v, want labels over [1 5 9]", e)
	}
	out, stderr := mustRun(t, "predict", "--model", classifier, "--tu", fewer)
	if n := strings.Count(strings.TrimSpace(out), "\n"); n != 6 || !strings.Contains(stderr, "--features labels") {
		t.Errorf("predict on a folder with fewer node-label values: %d rows, log %q", n, stderr)
	}
	_, stderr = mustRun(t, "predict", "--model", classifier, "--tu", unseen)
	if !strings.Contains(stderr, "nodes have node labels the model's training data did not have") {
		t.Errorf("predict with an unseen node label: no warning in %q", stderr)
	}
	if _, stderr, code := runCLI(t, "predict", "--model", classifier, "--tu", fewer, "--features", "attributes"); code != cli.ExitUsage || !strings.Contains(stderr, "trained with --features labels") {
		t.Errorf("predict with other features: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "predict", "--model", classifier, "--tu", fewer, "--standardize"); code != cli.ExitUsage || !strings.Contains(stderr, "not standardized") {
		t.Errorf("predict with --standardize for a model without: exit %d, %q", code, stderr)
	}

	model := filepath.Join(dir, "attr.model")
	mustRun(t, "fit", "--tu", train, "--features", "attributes", "--standardize", "--output", model,
		"--atoms", "3", "--layers", "5", "--epochs", "1", "-q")
	// Resuming needs no feature flags either.
	mustRun(t, "fit", "--tu", train, "--output", model, "--resume", "--epochs", "2", "-q")
	gm, err := training.Load(model)
	if err != nil || len(gm.History) != 2 {
		t.Fatalf("resumed without feature flags: %v", err)
	}
	if e := gm.Features; e == nil || e.Kind != graphs.FeaturesAttributes || len(e.Mean) != 1 || !(e.Scale[0] > 0) {
		t.Fatalf("model's feature encoding %+v, want standardized attributes", e)
	}
	// Shards standardize with the model's means and scales: merged, one run's bytes. (Shifted
	// attributes: standardized over themselves, they would look like the training data's.)
	shifted := writeFeaturedTU(t, "SHIFTED", 9, 4, []int{1}, 3)
	one := filepath.Join(dir, "one.csv")
	mustRun(t, "embed", "--model", model, "--tu", shifted, "--steps", "2", "--output", one, "-q")
	own := filepath.Join(dir, "own.csv")
	mustRun(t, "embed", "--model", model, "--tu", shifted, "--steps", "2", "--output", own, "--chunk", "4", "-q")
	var parts []string
	for i := range 2 {
		mustRun(t, "embed", "--model", model, "--tu", shifted, "--steps", "2", "--output", filepath.Join(dir, "e.csv"),
			"--shard", strconv.Itoa(i)+"/2", "--standardize", "-q")
		parts = append(parts, filepath.Join(dir, "e.shard-"+strconv.Itoa(i)+"-of-2.csv"))
	}
	merged := filepath.Join(dir, "merged.csv")
	mustRun(t, append([]string{"merge", "--output", merged, "-q"}, parts...)...)
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(merged)
	c, _ := os.ReadFile(own)
	if len(a) == 0 || !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Errorf("standardized shards or chunks differ from one run:\n%s\n%s\n%s", a, b, c)
	}
}

// TestModelsKeepDegreeFeatures: --features degrees gives every node its one-hot degree in place
// of the data's node labels and attributes; a model keeps that, so that predict and embed
// (in chunks too) read new graphs alike without the flag.
func TestModelsKeepDegreeFeatures(t *testing.T) {
	train := writeFeaturedTU(t, "TRAIN", 16, 1, []int{1, 5, 9}, 0)
	other := writeFeaturedTU(t, "OTHER", 7, 2, []int{1, 9}, 0)
	dir := t.TempDir()

	classifier := filepath.Join(dir, "degrees.classifier")
	mustRun(t, "semisup", "--method", "gwf", "--tu", train, "--features", "degrees", "--labeled-fraction", "1", "--output", classifier,
		"--atoms", "3", "--layers", "5", "--epochs", "1", "--hidden", "4", "--head-steps", "20", "-q")
	m, err := semisup.Load(classifier)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.GWF.Features; e == nil || e.Kind != graphs.FeaturesDegrees || m.GWF.Dim() != graphs.DegreeBins {
		t.Fatalf("classifier's feature encoding %+v, want degrees", e)
	}
	out, stderr := mustRun(t, "predict", "--model", classifier, "--tu", other)
	if n := strings.Count(strings.TrimSpace(out), "\n"); n != 7 || !strings.Contains(stderr, "--features degrees") {
		t.Errorf("predict: %d rows, log %q", n, stderr)
	}

	model := filepath.Join(dir, "degrees.model")
	mustRun(t, "fit", "--tu", train, "--features", "degrees", "--output", model, "--atoms", "3", "--layers", "5", "--epochs", "1", "-q")
	one := filepath.Join(dir, "one.csv")
	mustRun(t, "embed", "--model", model, "--tu", other, "--steps", "2", "--output", one, "-q")
	chunked := filepath.Join(dir, "chunked.csv")
	mustRun(t, "embed", "--model", model, "--tu", other, "--steps", "2", "--output", chunked, "--chunk", "3", "-q")
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(chunked)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("chunked embeddings differ from one run:\n%s\n%s", a, b)
	}
	if _, stderr, code := runCLI(t, "fit", "--tu", train, "--features", "degrees", "--standardize", "--output", filepath.Join(dir, "x.model"), "-q"); code == 0 || !strings.Contains(stderr, "not standardized") {
		t.Errorf("--standardize with degrees: exit %d, %q", code, stderr)
	}
}
