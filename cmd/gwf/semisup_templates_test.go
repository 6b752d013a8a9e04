package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// TestSemisupTemplates: --method templates cross-validates, trains on a fraction of the labels,
// saves a classifier that 'gwf predict' reads and predicts with the same forward pass.
func TestSemisupTemplates(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	unseen := writeBlocksTU(t, "UNSEEN", 10, 2)
	small := []string{"--method", "templates", "--epochs", "8", "--templates", "4", "--template-nodes", "6", "--encoder-hidden", "8", "--hidden", "8", "-q", "--json"}

	out, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--folds", "3"}, small...)...)
	rep := decodeJSON(t, out)
	folds, _ := rep["folds"].([]any)
	acc, _ := rep["accuracy"].(map[string]any)
	if rep["method"] != "templates" || len(folds) != 3 || rep["templates"] != 4.0 {
		t.Fatalf("report: %v", rep)
	}
	if m, _ := acc["mean"].(float64); m < 0.7 {
		t.Errorf("cross-validated accuracy %v on two block structures, want ≥ 0.7", m)
	}
	// With --output-dir the finished folds are kept and a rerun reuses them.
	dir := filepath.Join(t.TempDir(), "folds")
	first, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--folds", "3", "--output-dir", dir}, small...)...)
	if a := decodeJSON(t, first)["accuracy"].(map[string]any); a["mean"] != acc["mean"] {
		t.Errorf("with --output-dir the accuracy is %v, without %v", a["mean"], acc["mean"])
	}
	again, stderr := mustRun(t, append(append([]string{"semisup", "--tu", train, "--folds", "3", "--output-dir", dir}, small...), "-q=false")...)
	if a := decodeJSON(t, again)["accuracy"].(map[string]any); a["mean"] != acc["mean"] {
		t.Errorf("reusing the kept folds the accuracy is %v, computed %v", a["mean"], acc["mean"])
	}
	if strings.Count(stderr, "kept in") != 3 {
		t.Errorf("a rerun did not reuse the 3 kept folds:\n%s", stderr)
	}
	// --predictions writes every held-out graph's prediction, from kept folds too, and they
	// agree with the accuracy and the confusion matrix reported.
	heldOut := filepath.Join(t.TempDir(), "cv.csv")
	again, _ = mustRun(t, append([]string{"semisup", "--tu", train, "--folds", "3", "--output-dir", dir, "--predictions", heldOut}, small...)...)
	b, err := os.ReadFile(heldOut)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	right := 0
	for _, r := range rows[1:] {
		if c := strings.Split(r, ","); len(c) == 4 && c[1] == c[2] {
			right++
		}
	}
	if len(rows) != 25 || rows[0] != "graph,label,predicted,fold" || float64(right)/24 != acc["mean"] {
		t.Errorf("held-out predictions: %d rows, header %q, %d right (accuracy %v)", len(rows), rows[0], right, acc["mean"])
	}
	conf, _ := decodeJSON(t, again)["confusion"].(map[string]any)
	if counts, _ := conf["counts"].([]any); len(counts) != 2 {
		t.Errorf("confusion matrix %v", conf)
	}

	model := filepath.Join(t.TempDir(), "blocks.templates")
	out, _ = mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "1", "--output", model}, small...)...)
	if rep := decodeJSON(t, out); rep["labeled"] != 24.0 {
		t.Fatalf("labelled %v, want 24", rep["labeled"])
	}
	csv, _ := mustRun(t, "predict", "--model", model, "--tu", unseen, "-q")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 11 || lines[0] != "graph,label,predicted,p_-1,p_1" {
		t.Fatalf("predictions: %d lines, header %q", len(lines), lines[0])
	}
	// The default model reads the blocks' one-hot degrees with their Weisfeiler-Lehman labels,
	// and keeps the codes it knows for the unseen graphs predicted above.
	if e, err := semisup.LoadTemplateEnsemble(model); err != nil || e.Members[0].Config.WLLabels != semisup.DefaultWLLabels || len(e.Members[0].WLVocabulary) != semisup.DefaultWLLabels {
		t.Fatalf("the default model: %v, members %v", err, e)
	}
	again, _ = mustRun(t, "predict", "--model", model, "--tu", unseen, "-q")
	if again != csv {
		t.Error("a second prediction of the same graphs differs")
	}

	// --layers caps the template layer's CG iterations; the model keeps the cap.
	capped := filepath.Join(t.TempDir(), "capped.templates")
	mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "1", "--members", "1", "--layers", "5", "--output", capped}, small...)...)
	if e, err := semisup.LoadTemplateEnsemble(capped); err != nil || e.Members[0].Config.SolverIterations != 5 {
		t.Fatalf("--layers 5: %v, members %v", err, e)
	}

	// --learn-node-weights and --wl reach the model, which keeps its learned weights and
	// Weisfeiler-Lehman rounds, and predicts.
	weighted := filepath.Join(t.TempDir(), "weighted.templates")
	mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "1", "--members", "1", "--learn-node-weights", "--wl", "2", "--output", weighted}, small...)...)
	if e, err := semisup.LoadTemplateEnsemble(weighted); err != nil || !e.Members[0].Config.LearnNodeWeights || e.Members[0].Templates[0].Logits == nil || e.Members[0].Config.WLRounds != 2 {
		t.Fatalf("--learn-node-weights --wl 2: %v, members %v", err, e)
	}
	mustRun(t, "predict", "--model", weighted, "--tu", unseen, "-q")

	half, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "0.5"}, small...)...)
	if rep := decodeJSON(t, half); rep["scored"] != 12.0 || rep["self_training"] != nil {
		t.Errorf("with half the labels: %v graphs scored (want 12), self-training %v (want none)", rep["scored"], rep["self_training"])
	}
	selfTrained, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "0.5", "--pseudo-labels", "0.5"}, small...)...)
	st, ok := decodeJSON(t, selfTrained)["self_training"].(map[string]any)
	if !ok || !(st["pseudo_labelled"].(float64) >= 6) || st["labels_alone_accuracy"] == nil || !(st["pseudo_label_accuracy"].(float64) > 0) {
		t.Errorf("self-training with half the labels, half of the rest pseudo-labelled: %v", st)
	}

	for _, bad := range [][]string{
		{"--method", "bogus"},
		{"--method", "templates", "--detach"},
		{"--method", "gwf", "--templates", "4"},
		{"--method", "gwf", "--wl", "2"},
		{"--method", "gwf", "--learn-node-weights"},
		{"--method", "templates", "--wl", "11"},
		{"--method", "templates", "--templates", "-1"},
		{"--method", "templates", "--members", "-1"},
		{"--method", "templates", "--members", "0"}, // the library's default, not a setting to type
		{"--method", "templates", "--members", "101"},
		{"--method", "templates", "--layers", "-1"},
		{"--method", "templates", "--layers", "0"}, // as --method gwf refuses it
		{"--method", "gwf", "--members", "2"},
		{"--method", "gwf", "--max-epochs", "100"},
		{"--method", "gwf", "--pseudo-labels", "0.5"},
		{"--method", "templates", "--pseudo-labels", "2"},
		{"--method", "templates", "--max-epochs", "5"},
		{"--method", "templates", "--structure", "ring"},
		{"--method", "templates", "--output", model},
	} {
		if _, stderr, code := runCLI(t, append([]string{"semisup", "--tu", train}, bad...)...); code != cli.ExitUsage {
			t.Errorf("semisup %v: exit %d, want %d\n%s", bad, code, cli.ExitUsage, stderr)
		}
	}
	if _, err := os.Stat(model); err != nil {
		t.Fatal(err)
	}
}

// TestSemisupDefaultsToTemplates: without --method, semisup trains the template model, and a
// flag of the paper's model is refused with the way to reach it (--method gwf) rather than
// ignored or taken as a request for the other model.
func TestSemisupDefaultsToTemplates(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	small := []string{"--epochs", "4", "--members", "1", "--templates", "4", "--template-nodes", "6", "--hidden", "8", "-q", "--json"}
	model := filepath.Join(t.TempDir(), "default.classifier")
	out, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "1", "--output", model}, small...)...)
	if rep := decodeJSON(t, out); rep["method"] != "templates" {
		t.Errorf("plain semisup reported method %v, want templates", rep["method"])
	}
	head, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !semisup.IsTemplateFile(head) {
		t.Errorf("plain semisup --output wrote no template classifier: %.80s", head)
	}
	if _, err := semisup.LoadTemplateEnsemble(model); err != nil {
		t.Fatal(err)
	}

	for _, flag := range [][]string{
		{"--atoms", "3"}, {"--solver", "badmm"}, {"--detach"}, {"--select-beta", "0.1,1"}, {"--encoder", "gcn"},
		{"--resume", "--labeled-fraction", "1", "--output", model}, {"--shard", "0/2", "--folds", "2", "--output-dir", t.TempDir()},
		{"--tol", "1e-9"}, {"--baselines=false"},
	} {
		name, _, _ := strings.Cut(flag[0], "=")
		_, stderr, code := runCLI(t, append([]string{"semisup", "--tu", train}, flag...)...)
		if code != cli.ExitUsage || !strings.Contains(stderr, "add --method gwf") || !strings.Contains(stderr, name) {
			t.Errorf("semisup %v: exit %d, stderr %q; want a usage error that names %s and says to add --method gwf", flag, code, stderr, name)
		}
		// With --method templates given, the message says whose setting it is instead.
		_, stderr, code = runCLI(t, append([]string{"semisup", "--tu", train, "--method", "templates"}, flag...)...)
		if code != cli.ExitUsage || strings.Contains(stderr, "add --method gwf") {
			t.Errorf("semisup --method templates %v: exit %d, stderr %q", flag, code, stderr)
		}
	}
}

// TestPoolTemplateReports: template-model reports of two fold seeds pool into one mean over
// their folds; another setting is refused.
func TestPoolTemplateReports(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 18, 1)
	dir := t.TempDir()
	args := []string{"semisup", "--tu", train, "--folds", "3", "--epochs", "2", "--members", "1", "--templates", "2", "--template-nodes", "4", "--hidden", "4", "--json", "-q"}
	var files []string
	for _, seed := range []string{"1", "2"} {
		out, _ := mustRun(t, append(args, "--fold-seed", seed)...)
		files = append(files, writeFile(t, dir, "r"+seed+".json", out))
	}
	out, _ := mustRun(t, "pool", "--json", files[0], files[1])
	var p crossval.Pooled
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Reports) != 2 || p.Pooled.Folds != 6 || p.Reports[1].Seed != 2 || !(p.Pooled.Accuracy.Mean > 0) {
		t.Fatalf("pooled %+v", p)
	}
	text, _ := mustRun(t, "pool", files[0], files[1])
	if !strings.Contains(text, "2 template-model reports of 3 folds") {
		t.Errorf("pool's text: %q", text)
	}
	other, _ := mustRun(t, append(args, "--wl", "1")...)
	if _, _, code := runCLI(t, "pool", files[0], writeFile(t, dir, "wl1.json", other)); code != cli.ExitUsage {
		t.Fatalf("pooling two settings: exit %d", code)
	}
}

// TestSemisupTemplateNodesMedian: --template-nodes 0 bounds each fold's templates by the median
// size of its training graphs, and with several sizes (3,0) equal groups of the templates in
// turn; the log names the sizes and each fold records the median it took. A negative size,
// and more sizes than templates, are refused.
func TestSemisupTemplateNodesMedian(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 16, 1)
	for _, c := range []struct{ nodes, log, bad, refusal string }{
		{"0", "templates of ≤ the median graph size", "-1", "0: the median graph size"},
		{"3,0", "templates of ≤ 3 nodes, the median graph size (in equal groups)", "3,4,5", "3 template sizes"},
	} {
		args := []string{"semisup", "--tu", train, "--folds", "2", "--epochs", "2", "--members", "1", "--templates", "2", "--hidden", "4", "--json", "--template-nodes", c.nodes}
		out, logs := mustRun(t, args...)
		if !strings.Contains(logs, c.log) {
			t.Errorf("--template-nodes %s: the log does not say %q:\n%s", c.nodes, c.log, logs)
		}
		folds, _ := decodeJSON(t, out)["folds"].([]any)
		if len(folds) != 2 {
			t.Fatalf("--template-nodes %s: %d folds", c.nodes, len(folds))
		}
		for _, f := range folds {
			if n, _ := f.(map[string]any)["template_nodes"].(float64); n <= 3 { // the blocks' graphs are larger
				t.Errorf("--template-nodes %s: fold %v: template_nodes %v recorded", c.nodes, f.(map[string]any)["fold"], f.(map[string]any)["template_nodes"])
			}
		}
		if _, stderr, code := runCLI(t, append(args[:len(args)-1], c.bad)...); code != cli.ExitUsage || !strings.Contains(stderr, c.refusal) {
			t.Errorf("--template-nodes %s: exit %d: %s", c.bad, code, stderr)
		}
	}
}

// TestSemisupEncoderAuto: --encoder auto trains both encoders per fold and records the one the
// fold's validation split chose; without a validation split it is refused.
func TestSemisupEncoderAuto(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 16, 1)
	args := []string{"semisup", "--tu", train, "--folds", "2", "--epochs", "2", "--members", "1", "--templates", "2", "--template-nodes", "4",
		"--hidden", "4", "--encoder-hidden", "4", "--encoder", "auto", "--json", "-q"}
	out, _ := mustRun(t, args...)
	folds, _ := decodeJSON(t, out)["folds"].([]any)
	if len(folds) != 2 {
		t.Fatalf("%d folds", len(folds))
	}
	for _, f := range folds {
		if enc := f.(map[string]any)["encoder"]; enc != "none" && enc != "gin" {
			t.Errorf("fold %v: encoder %v chosen", f.(map[string]any)["fold"], enc)
		}
		if c, ok := f.(map[string]any)["node_features"]; ok { // graphs without features: nothing to choose
			t.Errorf("fold %v: node features %v chosen on graphs without any", f.(map[string]any)["fold"], c)
		}
	}
	if _, _, code := runCLI(t, append(args, "--validation", "0")...); code != cli.ExitUsage {
		t.Errorf("--encoder auto --validation 0: exit %d", code)
	}
}

// TestSemisupNodeFeaturesChoice: without --features, data with node attributes are read with
// them or by their structure alone, as each fold's validation split chose, and the folds say
// which; --features names the features read, and nothing is chosen.
func TestSemisupNodeFeaturesChoice(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 16, 1)
	addNoiseAttributes(t, train, "TRAIN")
	args := []string{"semisup", "--tu", train, "--folds", "2", "--epochs", "3", "--members", "1", "--templates", "2", "--template-nodes", "4",
		"--hidden", "4", "--json", "-q"}
	out, _ := mustRun(t, args...)
	rep := decodeJSON(t, out)
	folds, _ := rep["folds"].([]any)
	if len(folds) != 2 || rep["config"].(map[string]any)["node_features"] != "auto" {
		t.Fatalf("report: %v", rep)
	}
	for _, f := range folds {
		if c := f.(map[string]any)["node_features"]; c != "data" && c != "none" {
			t.Errorf("fold %v: node features %v chosen", f.(map[string]any)["fold"], c)
		}
	}
	out, _ = mustRun(t, append(args, "--features", "attributes")...)
	rep = decodeJSON(t, out)
	if c := rep["config"].(map[string]any)["node_features"]; c != "data" {
		t.Errorf("--features attributes: node features %v", c)
	}
	for _, f := range rep["folds"].([]any) {
		if c, ok := f.(map[string]any)["node_features"]; ok {
			t.Errorf("--features attributes: fold %v chose %v", f.(map[string]any)["fold"], c)
		}
	}
}

// addNoiseAttributes writes a TU node-attribute file of noise, one row per node, into the
// TU folder dir of dataset name.
func addNoiseAttributes(t *testing.T, dir, name string) {
	t.Helper()
	ind, err := os.ReadFile(filepath.Join(dir, name+"_graph_indicator.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var b strings.Builder
	for range strings.Count(string(ind), "\n") {
		fmt.Fprintf(&b, "%g, %g\n", rng.NormFloat64(), rng.NormFloat64())
	}
	if err := os.WriteFile(filepath.Join(dir, name+"_node_attributes.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
