package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeElementFolder writes graphs whose class is told only by their nodes' string attribute
// "element" (class 0: C and N, class 1: C and O) as networkx's node-link JSON, with a
// labels.csv; the structure is a random tree for both classes.
func writeElementFolder(t *testing.T, n int, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(seed, 3))
	var labels []string
	for i := range n {
		class := i % 2
		size := 6 + rng.IntN(5)
		var nodes, links []string
		for v := range size {
			el := []string{"C", []string{"N", "O"}[class]}[rng.IntN(2)]
			nodes = append(nodes, fmt.Sprintf(`{"id": "a%d", "element": %q}`, v, el))
			if v > 0 {
				links = append(links, fmt.Sprintf(`{"source": "a%d", "target": "a%d"}`, rng.IntN(v), v))
			}
		}
		doc := `{"directed": false, "multigraph": false, "graph": {}, "nodes": [` + strings.Join(nodes, ",") + `], "links": [` + strings.Join(links, ",") + `]}`
		name := fmt.Sprintf("m%02d.json", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		labels = append(labels, fmt.Sprintf("%s,%d", name, class))
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(strings.Join(labels, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestClassifyFolderCategories: by default a folder's string node attributes are its node
// labels, one-hot; a saved classifier reads unseen graphs with the same columns.
func TestClassifyFolderCategories(t *testing.T) {
	train := writeElementFolder(t, 24, 1)
	unseen := writeElementFolder(t, 10, 2)
	out, _ := mustRun(t, "classify", "--graphs", train, "--folds", "3", "--structure", "adjacency", "--wl", "0", "-q", "--json")
	rep := decodeJSON(t, out)
	if rep["features"] != "--features labels" {
		t.Fatalf("features %v, want --features labels", rep["features"])
	}
	if acc := rep["accuracy"].(map[string]any)["mean"].(float64); acc < 0.9 {
		t.Fatalf("accuracy %v on graphs told apart by their node labels", acc)
	}
	model := filepath.Join(t.TempDir(), "m.classifier")
	mustRun(t, "classify", "--graphs", train, "--labeled-fraction", "1", "--output", model, "--structure", "adjacency", "--wl", "0", "-q")
	out, _ = mustRun(t, "predict", "--model", model, "--graphs", unseen, "--json", "-q")
	var got struct {
		Score struct {
			Accuracy float64 `json:"accuracy"`
		} `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Score.Accuracy < 0.9 {
		t.Fatalf("unseen graphs: %+v, %v", got, err)
	}
	if _, stderr, code := runCLI(t, "classify", "--graphs", train, "--features", "labels", "--folds", "3", "--structure", "adjacency", "--wl", "0", "-q"); code != 0 {
		t.Fatalf("--features labels on a folder: exit %d: %s", code, stderr)
	}
}
