package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// TestFitStream: fit --stream trains the model fit trains in memory, byte for byte (fresh and
// resumed, with standardized attributes, a subset and --feature-weight auto, read from a TU
// folder in one scan and from a bundled dataset in chunks), and leaves no spool behind.
func TestFitStream(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "SBM")
	mustRun(t, "generate", "sbm", "--count", "30", "--nodes", "6:12", "--output", folder, "--quiet")
	for name, data := range map[string][]string{
		"bundled": {"--dataset", "PROTEINS", "--features", "attributes", "--standardize", "--feature-weight", "auto", "--subset", "40"},
		"folder":  {"--tu", folder, "--subset", "25"},
	} {
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			args := func(model string, extra ...string) []string {
				a := []string{"fit", "--output", filepath.Join(out, model), "--atoms", "3", "--layers", "5", "--batch", "8", "--quiet"}
				return append(append(a, data...), extra...)
			}
			mustRun(t, args("memory.model", "--epochs", "2")...)
			mustRun(t, args("stream.model", "--epochs", "2", "--stream")...)
			mustRun(t, args("resumed.model", "--epochs", "1", "--stream")...)
			mustRun(t, args("resumed.model", "--epochs", "2", "--stream", "--resume")...)
			want, err := os.ReadFile(filepath.Join(out, "memory.model"))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []string{"stream.model", "resumed.model"} {
				got, err := os.ReadFile(filepath.Join(out, m))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the model trained in memory", m)
				}
			}
			entries, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.Contains(e.Name(), "stream") && strings.HasSuffix(e.Name(), ".store") {
					t.Errorf("spool %s left behind", e.Name())
				}
			}
		})
	}
}

// TestFitStreamRefusesOtherData: resuming a streamed model on other data is refused, as in
// memory.
func TestFitStreamRefusesOtherData(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, fitArgs(model, "--subset", "20", "--stream")...)
	_, stderr, code := runCLI(t, fitArgs(model, "--subset", "21", "--stream", "--resume", "--epochs", "2")...)
	if code == cli.ExitOK || !strings.Contains(stderr, "not the 20 graphs the model was trained on") {
		t.Fatalf("resume on other data: exit %d, %s", code, stderr)
	}
}
