package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// NoArgs refuses positional arguments with a usage error, suggesting a command for a typo.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.HasAvailableSubCommands() {
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return UsageError{errors.New(msg)}
	}
	return Usagef("%s takes no arguments, got %q", cmd.CommandPath(), args)
}

// ExactArgs requires n positional arguments (usage error otherwise).
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("%s needs %d arguments, got %d", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}

// FlagError is a cobra flag error function for the root command: a usage error that adds
// "did you mean --x?" for a mistyped flag, names the commands an unknown flag belongs to, and
// reports a mistyped command ("gwf clsuter --dataset X") rather than its flags.
func FlagError(cmd *cobra.Command, err error) error {
	if args := cmd.Flags().Args(); !cmd.HasParent() && len(args) > 0 {
		return NoArgs(cmd, args)
	}
	return UsageError{suggestFlag(cmd, err)}
}

// suggestFlag adds "did you mean --x?" to an unknown-flag error when a flag of cmd is close
// to the one given. pflag and cobra suggest commands but not flags.
func suggestFlag(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return err
	}
	var best []string
	bestDist := 3 // suggest only names within edit distance 2, or that start with the given one
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		switch {
		case d < bestDist:
			best, bestDist = []string{"--" + f.Name}, d
		case d == bestDist:
			best = append(best, "--"+f.Name)
		}
	})
	if other := commandsWithFlag(cmd, name); len(other) > 0 { // a flag of another command
		last := len(other) - 1
		if last > 0 {
			other[last-1] += " and " + other[last]
			other = other[:last]
		}
		return fmt.Errorf("%w: it is a flag of %s", err, strings.Join(other, ", "))
	}
	if len(best) > 0 {
		return fmt.Errorf("%w; did you mean %s?", err, strings.Join(best, " or "))
	}
	return err
}

// commandsWithFlag names the other commands that have the flag name ('gwf classify' for
// --wl given to 'gwf semisup').
func commandsWithFlag(cmd *cobra.Command, name string) []string {
	var out []string
	for _, c := range cmd.Root().Commands() {
		if f := c.Flags().Lookup(name); c != cmd && f != nil && !f.Hidden {
			out = append(out, "'"+c.CommandPath()+"'")
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b (bytes; flag names are ASCII). Written
// here: a dozen lines do not justify a dependency.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
