package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npz"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

// fitArgs is a fit on MUTAG with tiny settings (well under a second), plus extra flags.
func fitArgs(model string, extra ...string) []string {
	args := []string{"fit", "--dataset", "MUTAG", "--output", model,
		"--atoms", "3", "--layers", "5", "--epochs", "1", "--batch", "16", "--quiet"}
	return append(args, extra...)
}

func TestFitThenEmbed(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "mutag.model")
	out, _ := mustRun(t, fitArgs(model)...)
	if !strings.Contains(out, "trained 1 epoch") {
		t.Errorf("fit output: %q", out)
	}
	m, err := training.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.History) != 1 || m.K() != 3 || m.Config.Layers != 5 || m.Config.Batch != 16 {
		t.Fatalf("model: %d epochs, K = %d, config %+v", len(m.History), m.K(), m.Config)
	}

	// On the training data, embed writes the trained Z.
	csvOut, stderr := mustRun(t, "embed", "--model", model, "--dataset", "MUTAG", "--embedding", "z")
	if !strings.Contains(stderr, "training data") {
		t.Errorf("embed did not say it used the trained embeddings: %s", stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 189 || strings.Join(recs[0], ",") != "graph,label,z0,z1,z2" {
		t.Fatalf("embed CSV: %d records, header %v", len(recs), recs[0])
	}
	if recs[1][0] != "MUTAG#1" || (recs[1][1] != "1" && recs[1][1] != "-1") {
		t.Errorf("first row %v", recs[1])
	}
	for i, rec := range recs[1:] {
		for k := 0; k < 3; k++ {
			v, err := strconv.ParseFloat(rec[2+k], 64)
			if err != nil || v != m.Z.At(i, k) {
				t.Fatalf("row %d, z%d = %q, want %v", i, k, rec[2+k], m.Z.At(i, k))
			}
		}
	}

	// Other data (a subset) is embedded in transform mode; lambda rows sum to 1; npz output
	// with the graphs' names and labels.
	npzPath := filepath.Join(dir, "lambda.npz")
	_, stderr = mustRun(t, "embed", "--model", model, "--dataset", "MUTAG", "--subset", "12",
		"--embedding", "lambda", "--output", npzPath, "--steps", "2")
	if !strings.Contains(stderr, "transform mode") {
		t.Errorf("embed on a subset did not use transform mode: %s", stderr)
	}
	arc, err := npz.Open(npzPath)
	if err != nil {
		t.Fatal(err)
	}
	defer arc.Close()
	var lambda mat.Dense
	if err := arc.Read("embeddings.npy", &lambda); err != nil {
		t.Fatal(err)
	}
	if r, c := lambda.Dims(); r != 12 || c != 3 {
		t.Fatalf("npz embeddings %d×%d, want 12×3", r, c)
	}
	for i := 0; i < 12; i++ {
		if s := mat.Sum(lambda.RowView(i)); s < 1-1e-12 || s > 1+1e-12 {
			t.Errorf("lambda row %d sums to %v", i, s)
		}
	}
	if keys := strings.Join(arc.Keys(), ","); keys != "embeddings.npy,graphs.npy,labels.npy" {
		t.Errorf("npz holds %s", keys)
	}

	// A model trained without features refuses featured data with a hint.
	_, stderr, code := runCLI(t, "embed", "--model", model, "--dataset", "MUTAG", "--features", "labels")
	if code != cli.ExitUsage || !strings.Contains(stderr, "--features none") {
		t.Errorf("embed with mismatched features: exit %d, %s", code, stderr)
	}
}

func TestFitResume(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, fitArgs(model)...)

	// Without --resume or --force an existing model is not replaced.
	if _, _, code := runCLI(t, fitArgs(model)...); code != cli.ExitUsage {
		t.Errorf("fit over an existing model: exit %d, want %d", code, cli.ExitUsage)
	}
	// --resume --epochs 2 continues; a conflicting flag is ignored with a warning.
	_, stderr, code := runCLI(t, append(fitArgs(model, "--resume", "--gamma", "0.5", "--log-level", "warn"), "--epochs", "2")...)
	if code != cli.ExitOK {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "--gamma=0.5 ignored") {
		t.Errorf("no warning about --gamma: %s", stderr)
	}
	m, err := training.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.History) != 2 || m.Config.Epochs != 2 || m.Config.Gamma != 0.01 {
		t.Fatalf("after resume: %d epochs, config %+v", len(m.History), m.Config)
	}
	// Resuming on other data is refused.
	_, stderr, code = runCLI(t, append(fitArgs(model, "--resume", "--subset", "20"), "--epochs", "3")...)
	if code != cli.ExitError || !strings.Contains(stderr, "not the 188 graphs") {
		t.Errorf("resume on other data: exit %d: %s", code, stderr)
	}
	// --force starts afresh.
	mustRun(t, fitArgs(model, "--force")...)
	if m, err = training.Load(model); err != nil || len(m.History) != 1 {
		t.Fatalf("after --force: %v, %d epochs", err, len(m.History))
	}
}

func TestFitInterrupted(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as if SIGINT arrived before the first batch
	_, stderr, code := runCLIContext(t, ctx, fitArgs(model)...)
	if code != cli.ExitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitInterrupted, stderr)
	}
	if !strings.Contains(stderr, "--resume") || !strings.Contains(stderr, "gwf fit") {
		t.Errorf("the message does not say how to resume: %s", stderr)
	}
	// The checkpoint written before training can be resumed.
	_, stderr, code = runCLI(t, fitArgs(model, "--resume")...)
	if code != cli.ExitOK {
		t.Fatalf("resume after interruption: exit %d: %s", code, stderr)
	}
	if m, err := training.Load(model); err != nil || len(m.History) != 1 {
		t.Fatalf("after resuming: %v", err)
	}
}

// TestEmbedInterrupted: a signal while embed reads the model and the data (seconds for large
// ones) ends it with exit 130 and nothing written, also when the embeddings need no
// computing (the model's own training data), instead of being ignored.
func TestEmbedInterrupted(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "m.model"), filepath.Join(dir, "emb.csv")
	mustRun(t, fitArgs(model)...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, stderr, code := runCLIContext(t, ctx, "embed", "--model", model, "--dataset", "MUTAG", "--output", out)
	if code != cli.ExitInterrupted || !strings.Contains(stderr, "nothing written") {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitInterrupted, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written: %v", out, err)
	}
}

// writeTU writes a small TU dataset (6 labelled graphs with node labels) and returns its folder.
func writeTU(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "SMALL")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var a, ind, gl, nl strings.Builder
	node := 0
	for g := 1; g <= 6; g++ {
		n := 3 + g%3
		first := node + 1
		for i := 0; i < n; i++ {
			node++
			ind.WriteString(strconv.Itoa(g) + "\n")
			nl.WriteString(strconv.Itoa(i%2) + "\n")
		}
		for i := first; i < first+n-1; i++ { // a path, plus a chord in class 1
			a.WriteString(strconv.Itoa(i) + ", " + strconv.Itoa(i+1) + "\n" + strconv.Itoa(i+1) + ", " + strconv.Itoa(i) + "\n")
		}
		if g%2 == 1 {
			a.WriteString(strconv.Itoa(first) + ", " + strconv.Itoa(first+n-1) + "\n" + strconv.Itoa(first+n-1) + ", " + strconv.Itoa(first) + "\n")
		}
		gl.WriteString(strconv.Itoa(g%2) + "\n")
	}
	writeFile(t, dir, "SMALL_A.txt", a.String())
	writeFile(t, dir, "SMALL_graph_indicator.txt", ind.String())
	writeFile(t, dir, "SMALL_graph_labels.txt", gl.String())
	writeFile(t, dir, "SMALL_node_labels.txt", nl.String())
	return dir
}

func TestFitTUWithFeatures(t *testing.T) {
	tu := writeTU(t)
	model := filepath.Join(t.TempDir(), "small.model")
	mustRun(t, "fit", "--tu", tu, "--features", "labels", "--output", model, "--atoms", "2", "--layers", "5",
		"--epochs", "2", "--batch", "4", "--solver", "badmm", "--quiet")
	m, err := training.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 2 || m.Config.Solver != "badmm" || m.Config.Gamma != 1 {
		t.Fatalf("model: dim %d, config %+v (want 2-dim features, badmm with its default γ = 1)", m.Dim(), m.Config)
	}
	out, _ := mustRun(t, "embed", "--model", model, "--tu", tu, "--features", "labels", "--embedding", "lambda")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 7 || lines[0] != "graph,label,lambda0,lambda1" {
		t.Errorf("embed output:\n%s", out)
	}
	// Without --features, the model's own are read (it keeps their encoding).
	if again, _ := mustRun(t, "embed", "--model", model, "--tu", tu, "--embedding", "lambda"); again != out {
		t.Errorf("embed without --features:\n%s\nwant\n%s", again, out)
	}
	// Damaged inputs are runtime errors, not crashes.
	bad := writeFile(t, t.TempDir(), "bad.model", `{"format":"gwf-model"`)
	if _, stderr, code := runCLI(t, "embed", "--model", bad, "--tu", tu); code != cli.ExitError {
		t.Errorf("damaged model: exit %d: %s", code, stderr)
	}
	writeFile(t, tu, "SMALL_graph_labels.txt", "0\nx\n")
	if _, stderr, code := runCLI(t, "fit", "--tu", tu, "--output", model, "--force", "-q"); code != cli.ExitError {
		t.Errorf("damaged TU folder: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "fit", "--tu", t.TempDir(), "--output", model, "--force", "-q"); code != cli.ExitError {
		t.Errorf("empty TU folder: exit %d: %s", code, stderr)
	}
}

// --feature-weight auto trains with training.BalanceFeatures's weight for the data read, stores
// it in the model, and keeps the stored weight when training resumes.
func TestFitFeatureWeightAuto(t *testing.T) {
	tu := writeTU(t)
	model := filepath.Join(t.TempDir(), "auto.model")
	args := []string{"fit", "--tu", tu, "--features", "labels", "--output", model, "--atoms", "2", "--layers", "5",
		"--batch", "4", "--feature-weight", "auto"}
	_, stderr := mustRun(t, append(args, "--epochs", "1")...)
	if !strings.Contains(stderr, "--feature-weight auto: ") {
		t.Errorf("the weight found is not logged:\n%s", stderr)
	}
	ds, err := graphs.ReadTUPath(tu, graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	want, err := training.BalanceFeatures(graphs.Slice(ds.Graphs))
	if err != nil {
		t.Fatal(err)
	}
	m, err := training.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if want.Weight == 1 || m.Config.FeatureWeight != want.Weight {
		t.Fatalf("model's feature weight %v, want the balanced %v (≠ 1 on this data)", m.Config.FeatureWeight, want.Weight)
	}
	_, stderr = mustRun(t, append(args, "--epochs", "2", "--resume")...)
	if m, err = training.Load(model); err != nil || m.Config.FeatureWeight != want.Weight || strings.Contains(stderr, "ignored") {
		t.Errorf("resumed with --feature-weight auto: weight %v (want %v), %v\n%s", m.Config.FeatureWeight, want.Weight, err, stderr)
	}
}

// TestFitTol: --tol trains in the converged mode and is stored in the model; a tolerance
// outside [0, 1) is a usage error.
func TestFitTol(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tol.model")
	mustRun(t, "fit", "--dataset", "MUTAG", "--subset", "8", "--epochs", "1", "--atoms", "2", "--layers", "5", "--tol", "1e-3", "--output", out, "-q")
	m, err := training.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.Tol != 1e-3 {
		t.Errorf("stored tol %v, want 1e-3", m.Config.Tol)
	}
	if _, _, code := runCLI(t, "fit", "--dataset", "MUTAG", "--tol", "2", "--output", out+"2"); code != cli.ExitUsage {
		t.Errorf("--tol 2: exit %d, want %d", code, cli.ExitUsage)
	}
}
