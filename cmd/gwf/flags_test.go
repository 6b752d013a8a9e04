package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// TestFlagSuggestions: a mistyped flag gets "did you mean", a far one does not.
func TestFlagSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--epoch", "3"}, "did you mean --epochs?"},
		{[]string{"cluster", "--cluster", "3"}, "did you mean --clusters?"},
		{[]string{"embed", "--dataet", "MUTAG"}, "did you mean --dataset?"},
		{[]string{"fit", "--stand"}, "did you mean --standardize?"},
		{[]string{"fit", "--zzzzzz"}, ""},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, "unknown flag") {
			t.Errorf("gwf %v: exit %d, stderr %q", tc.args, code, stderr)
			continue
		}
		if got := strings.Contains(stderr, "did you mean"); got != (tc.want != "") || !strings.Contains(stderr, tc.want) {
			t.Errorf("gwf %v: stderr %q, want %q", tc.args, stderr, tc.want)
		}
	}
	// A mistyped command gets its suggestion, with or without flags after it.
	for _, args := range [][]string{{"clsuter"}, {"clsuter", "--dataset", "MUTAG"}, {"classfy", "--folds", "3"}} {
		_, stderr, code := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, "unknown command") || !strings.Contains(stderr, "did you mean") {
			t.Errorf("gwf %v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// A flag of another command says whose it is.
	for args, want := range map[string]string{"semisup --vote 3": "a flag of 'gwf classify'", "classify --beta 1": "a flag of 'gwf semisup'"} {
		_, stderr, code := runCLI(t, append(strings.Fields(args), "--dataset", "MUTAG")...)
		if code != cli.ExitUsage || !strings.Contains(stderr, want) {
			t.Errorf("gwf %s: exit %d, stderr %q (want %q)", args, code, stderr, want)
		}
	}
}

// TestClassifyMethodGWF: the old form 'gwf classify --method gwf' says where the
// semi-supervised model went.
func TestClassifyMethodGWF(t *testing.T) {
	_, stderr, code := runCLI(t, "classify", "--method", "gwf", "--dataset", "MUTAG")
	if code != cli.ExitUsage || !strings.Contains(stderr, "'gwf semisup --method gwf'") {
		t.Errorf("classify --method gwf: exit %d, stderr %q", code, stderr)
	}
}

// TestEpochsAtLeastOne: --epochs 0 would score the random initialisation.
func TestEpochsAtLeastOne(t *testing.T) {
	for _, cmd := range [][]string{{"fit", "--output", "x"}, {"cluster"}} {
		args := append(cmd, "--dataset", "MUTAG", "--epochs", "0")
		if _, stderr, code := runCLI(t, args...); code != cli.ExitUsage || !strings.Contains(stderr, "--epochs = 0 must be at least 1") {
			t.Errorf("gwf %v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	out, _ := mustRun(t, "version")
	if !strings.HasPrefix(out, "gwf version ") || !strings.Contains(out, versionString()) {
		t.Errorf("gwf version printed %q", out)
	}
}

// TestRenamedFlags: one meaning per flag name. --graphs is a folder of the data commands, so
// generate and bench count with --count; --format is an output format, so gw reads
// --input-format. The old names still work, with a note, and are gone from --help.
func TestRenamedFlags(t *testing.T) {
	dir := t.TempDir()
	_, stderr := mustRun(t, "generate", "sbm", "--graphs", "3", "--nodes", "5:6", "--output", filepath.Join(dir, "old"))
	if !strings.Contains(stderr, "now --count") {
		t.Errorf("generate --graphs: stderr %q, want a warning that it is now --count", stderr)
	}
	mustRun(t, "generate", "sbm", "--count", "3", "--nodes", "5:6", "--output", filepath.Join(dir, "new"), "-q")
	for cmd, names := range map[string][2]string{"generate": {"--count", "--graphs"}, "bench": {"--count", "--graphs"}, "gw": {"--input-format", "--format "}} {
		help, _ := mustRun(t, cmd, "--help")
		if !strings.Contains(help, names[0]) || strings.Contains(help, names[1]) {
			t.Errorf("%s --help: want %s and not %s:\n%s", cmd, names[0], names[1], help)
		}
	}
}
