package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// writeBondRings writes a folder of node-link rings whose class is their bonds alone: one
// bond type all round ("same"), or two alternating ("mixed"); the atoms are alike.
func writeBondRings(t *testing.T, n, offset int) string {
	t.Helper()
	dir := t.TempDir()
	labels := "graph,label\n"
	for i := range n {
		size := 6 + (i/2+offset)%4*2
		class := []string{"same", "mixed"}[i%2]
		var nodes, links []string
		for v := range size {
			nodes = append(nodes, fmt.Sprintf(`{"id": %d, "element": "C"}`, v))
			bond := "single"
			if class == "mixed" && v%2 == 1 {
				bond = "double"
			}
			links = append(links, fmt.Sprintf(`{"source": %d, "target": %d, "label": %q}`, v, (v+1)%size, bond))
		}
		file := fmt.Sprintf("ring%02d.json", i)
		text := `{"nodes": [` + strings.Join(nodes, ", ") + `], "links": [` + strings.Join(links, ", ") + `]}`
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		labels += file + "," + class + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestClassifyEdgeLabelsThenPredict: bond types a folder's links carry are read by default,
// chosen where only they tell the classes apart, kept by the saved classifier and read from
// the unseen graphs it predicts.
func TestClassifyEdgeLabelsThenPredict(t *testing.T) {
	train, unseen := writeBondRings(t, 16, 0), writeBondRings(t, 8, 1)
	model := filepath.Join(t.TempDir(), "rings.classifier")
	_, logs := mustRun(t, "classify", "--graphs", train, "--labeled-fraction", "1", "--output", model, "--structure", "adjacency", "--vote", "1")
	if !strings.Contains(logs, "--edge-labels") || !strings.Contains(logs, "with edge labels") {
		t.Fatalf("the edge labels were not read or not chosen:\n%s", logs)
	}
	if acc := predictedAccuracy(t, model, unseen); acc != 1 {
		t.Errorf("unseen rings: accuracy %v, want 1 (the bonds tell the classes apart)", acc)
	}
	// Without them the rings are alike: the classifier cannot tell them apart.
	rep := decodeJSON(t, func() string {
		out, _ := mustRun(t, "classify", "--graphs", train, "--edge-labels=false", "--folds", "2", "--structure", "adjacency", "--json", "-q")
		return out
	}())
	if acc := rep["accuracy"].(map[string]any)["mean"].(float64); acc > 0.8 {
		t.Errorf("without edge labels: accuracy %v on rings that differ only by their bonds", acc)
	}
}

// TestSemisupTemplatesEdgeLabels: the template model reads bond types into its Weisfeiler-
// Lehman labels (--edge-labels), tells the rings apart by them alone, keeps the setting in
// its file and reads the unseen graphs' bonds in 'gwf predict'; without them it cannot (and
// the log names the bonds left unread), and --edge-labels is refused by the models that do
// not read them.
func TestSemisupTemplatesEdgeLabels(t *testing.T) {
	train, unseen := writeBondRings(t, 16, 0), writeBondRings(t, 8, 1)
	small := []string{"semisup", "--graphs", train, "--labeled-fraction", "1", "--epochs", "20", "--templates", "4", "--template-nodes", "6", "--hidden", "8", "--members", "1", "--validation", "0", "-q"}
	with := filepath.Join(t.TempDir(), "with.templates")
	_, logs := mustRun(t, append(small, "--output", with, "--edge-labels=true", "-q=false")...)
	if !strings.Contains(logs, "with the edge labels") || strings.Contains(logs, "NaN") {
		t.Errorf("the edge labels were not read, or a log line says NaN without a validation split:\n%s", logs)
	}
	without := filepath.Join(t.TempDir(), "without.templates")
	if _, logs := mustRun(t, append(small, "--output", without, "--edge-labels=false", "-q=false")...); !strings.Contains(logs, "not read here (--edge-labels reads the edge labels)") {
		t.Errorf("the folder's unread edge labels were not named:\n%s", logs)
	}
	a, b := predictedAccuracy(t, with, unseen), predictedAccuracy(t, without, unseen)
	t.Logf("with %.2f without %.2f", a, b)
	if a < 0.9 || b > 0.75 {
		t.Errorf("unseen rings: %.2f with the bonds (want ≥ 0.9), %.2f without (want chance)", a, b)
	}
	if _, stderr, code := runCLI(t, "semisup", "--graphs", train, "--edge-labels", "--wl-labels", "0"); code != cli.ExitUsage || !strings.Contains(stderr, "--wl-labels") {
		t.Errorf("--edge-labels --wl-labels 0: exit %d: %s", code, stderr)
	}
	for _, method := range []string{"gwf", "lambda-svm"} {
		if _, stderr, code := runCLI(t, "semisup", "--graphs", train, "--method", method, "--edge-labels"); code != cli.ExitUsage || !strings.Contains(stderr, "--edge-labels") {
			t.Errorf("--method %s --edge-labels: exit %d: %s", method, code, stderr)
		}
	}
}

// predictedAccuracy is the accuracy 'gwf predict' reports for model on the labelled folder dir.
func predictedAccuracy(t *testing.T, model, dir string) float64 {
	t.Helper()
	out, _ := mustRun(t, "predict", "--model", model, "--graphs", dir, "--json", "-q")
	var got struct {
		Score struct {
			Accuracy float64 `json:"accuracy"`
		} `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got.Score.Accuracy
}
