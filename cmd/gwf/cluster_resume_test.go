package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rerun of "gwf cluster" with the same --output-dir reuses the runs saved there (a killed
// 5-run experiment continues where it stopped) and trains again those made with other settings.
func TestClusterReusesSavedRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cell")
	args := []string{"cluster", "--dataset", "MUTAG", "--subset", "30", "--atoms", "2", "--layers", "3",
		"--epochs", "1", "--json", "--output-dir", dir}
	mustRun(t, append(args, "--runs", "1")...)

	// Mark the saved run, so a reuse can be told from a retraining.
	p := filepath.Join(dir, "run0.json")
	var rec map[string]any
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	rec["run"].(map[string]any)["seconds"] = 12345.0
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	seconds := func(out string) []float64 {
		var s []float64
		for _, r := range decodeJSON(t, out)["runs"].([]any) {
			s = append(s, r.(map[string]any)["seconds"].(float64))
		}
		return s
	}

	out, stderr := mustRun(t, append(args, "--runs", "2")...)
	if s := seconds(out); len(s) != 2 || s[0] != 12345 || s[1] == 12345 {
		t.Errorf("rerun with --runs 2: seconds %v, want run 0 reused (12345) and run 1 trained", s)
	}
	if !strings.Contains(stderr, "reusing") {
		t.Errorf("the reuse is not logged:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "run1.json")); err != nil {
		t.Error(err)
	}

	// Other settings: the saved run is not reused, and a warning says why.
	out, stderr = mustRun(t, append(args, "--runs", "1", "--lr", "0.01")...)
	if s := seconds(out); len(s) != 1 || s[0] == 12345 {
		t.Errorf("run with another learning rate: seconds %v, want a new run", s)
	}
	if !strings.Contains(stderr, "other data or settings") {
		t.Errorf("no warning for the mismatched saved run:\n%s", stderr)
	}

	// A damaged record is trained again, not an error.
	if err := os.WriteFile(p, []byte(`{"data": "tr`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr = mustRun(t, append(args, "--runs", "1")...)
	if s := seconds(out); len(s) != 1 || s[0] == 12345 {
		t.Errorf("run after a damaged record: seconds %v", s)
	}
	if !strings.Contains(stderr, "run0.json") {
		t.Errorf("no warning for the damaged record:\n%s", stderr)
	}
}
