package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestAppExecute: each outcome's exit status and message, the hint of explain, the safety net
// for a panic, and an interruptible command's interrupt.
func TestAppExecute(t *testing.T) {
	errTooLarge := errors.New("too large")
	tree := func() (*cobra.Command, *App) {
		a := NewApp()
		root := &cobra.Command{Use: "tool", SilenceErrors: true, SilenceUsage: true}
		a.Attach(root)
		add := func(name string, run func(cmd *cobra.Command) error, annotations map[string]string) {
			root.AddCommand(&cobra.Command{Use: name, Annotations: annotations, RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd) }})
		}
		add("ok", func(cmd *cobra.Command) error { a.Log.Info("working"); return nil }, nil)
		add("usage", func(*cobra.Command) error { return Usagef("bad flag") }, nil)
		add("fail", func(*cobra.Command) error { return errors.New("broken") }, nil)
		add("large", func(*cobra.Command) error { return errTooLarge }, nil)
		add("panic", func(*cobra.Command) error { panic("boom") }, nil)
		add("wait", func(cmd *cobra.Command) error { <-cmd.Context().Done(); return cmd.Context().Err() }, Interruptible("nothing written"))
		return root, a
	}
	explain := func(err error) (string, bool) {
		if errors.Is(err, errTooLarge) {
			return "use less", true
		}
		return "", false
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args   []string
		ctx    context.Context
		code   int
		stderr []string
	}{
		{[]string{"ok"}, context.Background(), ExitOK, []string{"working"}},
		{[]string{"ok", "-q"}, context.Background(), ExitOK, nil},
		{[]string{"usage"}, context.Background(), ExitUsage, []string{"tool: bad flag", "Run 'tool usage --help' for usage."}},
		{[]string{"fail"}, context.Background(), ExitError, []string{"tool: broken"}},
		{[]string{"large"}, context.Background(), ExitUsage, []string{"tool: too large\nuse less\n"}},
		{[]string{"panic"}, context.Background(), ExitError, []string{"tool: internal error: boom"}},
		{[]string{"ok", "--log-level", "loud"}, context.Background(), ExitUsage, []string{"--log-level"}},
		{[]string{"wait"}, cancelled, ExitInterrupted, []string{"tool: interrupted: nothing written"}},
	} {
		root, a := tree()
		var stdout, stderr bytes.Buffer
		code := a.Execute(tc.ctx, root, tc.args, &stdout, &stderr, explain)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr.String())
		}
		for _, want := range tc.stderr {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%v: stderr %q, want %q", tc.args, stderr.String(), want)
			}
		}
		if tc.stderr == nil && stderr.Len() > 0 {
			t.Errorf("%v: stderr %q, want none", tc.args, stderr.String())
		}
	}
}
