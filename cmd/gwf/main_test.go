package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
)

// runCLI runs the command line in-process, with a fresh command tree.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCLIContext(t, context.Background(), args...)
}

func runCLIContext(t *testing.T, ctx context.Context, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb)
	return out.String(), errb.String(), code
}

// mustRun runs the command line and fails the test unless it succeeds.
func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, code := runCLI(t, args...)
	if code != cli.ExitOK {
		t.Fatalf("gwf %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout, stderr
}

// decodeJSON decodes s into a generic map, failing the test otherwise.
func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, s)
	}
	return m
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	cases := [][]string{
		{"nosuchcommand"},
		{"fit", "--nosuchflag"},
		{"fit", "--dataset", "MUTAG"}, // no --output
		{"fit", "--output", model},    // no data
		{"fit", "--dataset", "MUTAG", "--tu", dir, "--output", model}, // both sources
		{"fit", "--dataset", "NOSUCH", "--output", model},             // unknown dataset
		{"fit", "--dataset", "MUTAG", "--output", model, "--layers", "x"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--layers", "0"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--solver", "sgd"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--gamma", "-1"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--feature-weight", "heavy"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--feature-weight", "-1"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--atom-size", "big"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--atoms", "1", "--atom-size", "32768", "-q"}, // a 32 GiB model (found after reading)
		{"cluster", "--dataset", "MUTAG", "--atoms", "1", "--atom-size", "32768", "-q"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--features", "colours"},
		{"fit", "--dataset", "MUTAG", "--output", model, "--subset", "-3"},
		{"fit", "extra-argument", "--dataset", "MUTAG", "--output", model},
		{"embed", "--dataset", "MUTAG"}, // no --model
		{"embed", "--model", model, "--dataset", "MUTAG", "--format", "xml"},
		{"embed", "--model", model, "--dataset", "MUTAG", "--embedding", "w"},
		{"cluster", "--dataset", "MUTAG", "--runs", "0"},
		{"gw", "onlyone.json"},
		{"gw", "a.json", "b.json", "--solver", "x"},
		{"gw", "a.json", "b.json", "--input-format", "xml"},
		{"gw", "a.json", "b.json", "--layers", "-1"},
		{"datasets", "extra"},
		{"--log-level", "loud", "datasets"},
	}
	for _, args := range cases {
		_, stderr, code := runCLI(t, args...)
		if code != cli.ExitUsage {
			t.Errorf("gwf %s: exit %d, want %d (stderr: %s)", strings.Join(args, " "), code, cli.ExitUsage, stderr)
		}
		if !strings.HasPrefix(stderr, "gwf: ") {
			t.Errorf("gwf %s: stderr %q does not start with \"gwf: \"", strings.Join(args, " "), stderr)
		}
	}
	if _, err := os.Stat(model); err == nil {
		t.Errorf("a usage error wrote %s", model)
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, cmd := range []string{"gw", "datasets", "fit", "embed", "cluster"} {
		out, _ := mustRun(t, cmd, "--help")
		if !strings.Contains(out, "Examples:") || !strings.Contains(out, "gwf "+cmd) {
			t.Errorf("gwf %s --help lacks examples:\n%s", cmd, out)
		}
	}
	out, _ := mustRun(t)
	if !strings.Contains(out, "Available Commands") {
		t.Errorf("gwf without arguments does not print the help:\n%s", out)
	}
	out, _ = mustRun(t, "--version")
	if !strings.Contains(out, "gwf version") {
		t.Errorf("--version printed %q", out)
	}
}

func TestDatasetsJSON(t *testing.T) {
	out, _ := mustRun(t, "datasets", "--json")
	var infos []graphs.Description
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatalf("datasets --json: %v\n%s", err, out)
	}
	found := false
	for _, d := range infos {
		if d.Name == "MUTAG" {
			found = true
			if d.Graphs != 188 || d.Classes != 2 || d.NodeLabels != 7 {
				t.Errorf("MUTAG: %+v, want 188 graphs, 2 classes, 7 node labels", d)
			}
		}
	}
	if !found {
		t.Fatalf("datasets --json does not list MUTAG:\n%s", out)
	}
	table, _ := mustRun(t, "datasets")
	if !strings.Contains(table, "MUTAG") || !strings.Contains(table, "avg nodes") {
		t.Errorf("datasets table:\n%s", table)
	}
}

// TestMemoryLimitFlag: --max-memory refuses data whose dense matrices exceed it, with a message
// naming the flag, and bad values are usage errors.
func TestMemoryLimitFlag(t *testing.T) {
	_, stderr, code := runCLI(t, "fit", "--dataset", "MUTAG", "--output", filepath.Join(t.TempDir(), "m"), "--max-memory", "0.0001")
	if code != cli.ExitError || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("exit %d, stderr %q: want a runtime error naming --max-memory", code, stderr)
	}
	for _, v := range []string{"0", "-1", "NaN"} {
		if _, _, code := runCLI(t, "cluster", "--dataset", "MUTAG", "--max-memory", v); code != cli.ExitUsage {
			t.Errorf("--max-memory %s: exit %d, want %d", v, code, cli.ExitUsage)
		}
	}
}
