package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"kitten", "sitting", 3}, {"", "abc", 3}, {"epoch", "epochs", 1}, {"same", "same", 0}} {
		if d := editDistance(tc.a, tc.b); d != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.want)
		}
	}
}

// TestErrors: usage and interrupt errors are found through wrapping; Usage keeps nil nil.
func TestErrors(t *testing.T) {
	u := fmt.Errorf("reading: %w", Usagef("--x = %d", 3))
	if !IsUsage(u) || IsInterrupted(u) || u.Error() != "reading: --x = 3" {
		t.Errorf("usage error: %v (usage %v, interrupted %v)", u, IsUsage(u), IsInterrupted(u))
	}
	if Usage(nil) != nil || !IsUsage(Usage(errors.New("x"))) {
		t.Error("Usage: nil must stay nil, an error must become a usage error")
	}
	if i := Interrupted("interrupted: kept"); !IsInterrupted(fmt.Errorf("w: %w", i)) || IsUsage(i) {
		t.Errorf("interrupted error %v", i)
	}
}

// newTestCmd is a command with an int flag --epochs, a string flag --output, a bool --force
// and an int --atoms.
func newTestCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "fit", RunE: func(*cobra.Command, []string) error { return nil }}
	fs := cmd.Flags()
	fs.Int("epochs", 1, "")
	fs.String("output", "", "")
	fs.Bool("force", false, "")
	fs.Bool("resume", false, "")
	fs.Int("atoms", 3, "")
	RenamedFlag(fs, "epochs", "epoch-count")
	return cmd
}

func TestResumeCommand(t *testing.T) {
	cmd := newTestCmd()
	if err := cmd.ParseFlags([]string{"--epochs", "3", "--output", "my model's.file", "--force"}); err != nil {
		t.Fatal(err)
	}
	got := ResumeCommand(cmd, "force")
	want := `fit --epochs=3 --output='my model'\''s.file' --resume`
	if got != want {
		t.Errorf("ResumeCommand = %s, want %s", got, want)
	}
}

func TestChangedAndRenamed(t *testing.T) {
	cmd := newTestCmd()
	if err := cmd.ParseFlags([]string{"--atoms", "4", "--epoch-count", "2"}); err != nil {
		t.Fatal(err)
	}
	fs := cmd.Flags()
	if !Changed(fs, "atoms") || Changed(fs, "output") || Changed(fs, "no-such-flag") {
		t.Error("Changed is wrong")
	}
	if got := FirstChanged(fs, "no-such-flag", "output", "atoms", "epochs"); got != "atoms" {
		t.Errorf("FirstChanged = %q, want atoms (the first set of those named)", got)
	}
	if got := FirstChanged(fs, "output", "no-such-flag"); got != "" {
		t.Errorf("FirstChanged = %q with none of them set, want \"\"", got)
	}
	if v, _ := fs.GetInt("epochs"); v != 2 {
		t.Errorf("--epoch-count set --epochs to %d, want 2", v)
	}
}

// TestFlagError: a mistyped flag gets a suggestion, a far one none, a flag of another command
// names that command.
func TestFlagError(t *testing.T) {
	root := &cobra.Command{Use: "gwf"}
	fit, other := newTestCmd(), &cobra.Command{Use: "cluster", RunE: func(*cobra.Command, []string) error { return nil }}
	other.Flags().Int("clusters", 0, "")
	root.AddCommand(fit, other)
	for given, want := range map[string]string{
		"epoch": "did you mean --epochs?", "outp": "did you mean --output?", "zzzzzz": "",
		"clusters": "it is a flag of 'gwf cluster'",
	} {
		err := FlagError(fit, fmt.Errorf("unknown flag: --%s", given))
		if !IsUsage(err) || (want == "") != (err.Error() == "unknown flag: --"+given) || !strings.Contains(err.Error(), want) {
			t.Errorf("--%s: %v, want %q", given, err, want)
		}
	}
	if err := ExactArgs(2)(fit, []string{"a"}); !IsUsage(err) {
		t.Errorf("ExactArgs(2) of one argument: %v", err)
	}
	if err := NoArgs(fit, []string{"a"}); !IsUsage(err) || NoArgs(fit, nil) != nil {
		t.Errorf("NoArgs: %v", err)
	}
}
