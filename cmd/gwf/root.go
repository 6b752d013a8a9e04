package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/envelope"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/progresslog"
)

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1   // runtime errors: unreadable or invalid data, numerical failures, I/O
	exitUsage       = 2   // usage errors: unknown command or flag, bad flag value, missing flag
	exitInterrupted = 130 // training stopped by SIGINT or SIGTERM (128 + SIGINT)
)

// usageError marks an error as the user's mistake on the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// interruptedError reports training stopped by a signal (exit status 130); the message says how
// to resume.
type interruptedError struct{ msg string }

func (e interruptedError) Error() string { return e.msg }

// app holds what the commands of one command tree share. It is created by newRootCmd, so every
// tree (and every test) has its own.
type app struct {
	log         *logrus.Logger
	logLevel    string
	cpuProfile  string       // --cpuprofile path, or ""
	stopProfile func() error // set while a CPU profile is being written
	silent      bool         // --quiet: no progress, warnings and errors only
	signals     signalWatch  // set while an interruptible command runs
}

// signalWatch is the signal watching of an interruptible command (see interruptible).
type signalWatch struct {
	ctx  context.Context // cancelled by the first SIGINT or SIGTERM
	stop func()
	lost string // what the message of an interrupted run says is not written
}

// interruptibleKey annotates a command whose work stops at an interrupt: the value says what
// is then not written ("nothing written").
const interruptibleKey = "gwf-interruptible"

// interruptible annotates a command whose work watches SIGINT and SIGTERM through
// cmd.Context(): the first signal cancels it, a second aborts at once (withSignals). A runtime
// error returned after an interrupt becomes "interrupted: "+lost (exit status 130), unless the
// command says more itself (an interruptedError). Commands without it end at the first signal.
func interruptible(lost string) map[string]string {
	return map[string]string{interruptibleKey: lost}
}

// newRootCmd builds the whole command tree and the state its commands share.
func newRootCmd() (*cobra.Command, *app) {
	a := &app{log: logrus.New(), logLevel: "info"}
	root := &cobra.Command{
		Use:   "gwf",
		Short: "Gromov-Wasserstein factorization of graphs",
		Long: `gwf computes Gromov-Wasserstein discrepancies between graphs and learns
Gromov-Wasserstein factorization (GWF) models of graph datasets (Xu, "Gromov-Wasserstein
Factorization Models for Graph Clustering", AAAI 2020): K atom graphs and, per graph, an
embedding whose softmax weighs the atoms of a GW barycenter that reconstructs the graph.

Defaults are the paper's: PPA with γ = 0.01, M = 50 layers (5 Sinkhorn sweeps per layer),
L = 2 barycenter layers, K = 30 warm-started atoms, Adam with learning rate 0.05, 10 epochs.

Exit status: 0 on success, 1 on runtime errors, 2 on usage errors, 130 when training was
interrupted (SIGINT/SIGTERM).`,
		Example: `  gwf datasets
  gwf gw a.json b.json --json
  gwf fit --dataset MUTAG --output mutag.model
  gwf embed --model mutag.model --dataset MUTAG --output mutag.csv
  gwf cluster --dataset MUTAG --runs 5`,
		Version:       versionString(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			lvl, err := logrus.ParseLevel(a.logLevel)
			if err != nil {
				return usagef("--log-level: %q is not one of panic, fatal, error, warn, info, debug, trace", a.logLevel)
			}
			if a.silent && !changed(cmd.Flags(), "log-level") {
				lvl = logrus.WarnLevel
			}
			a.log.SetLevel(lvl)
			a.log.SetOutput(cmd.ErrOrStderr())
			warnRenamed(cmd.Flags(), a.log)
			if a.cpuProfile != "" {
				if a.stopProfile, err = startCPUProfile(a.cpuProfile); err != nil {
					return err
				}
			}
			if lost, ok := cmd.Annotations[interruptibleKey]; ok {
				ctx, stop := withSignals(cmd.Context(), a.log)
				a.signals = signalWatch{ctx: ctx, stop: stop, lost: lost}
				cmd.SetContext(ctx)
			}
			return nil
		},
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", a.logLevel, "log level: error, warn, info, debug or trace (progress is logged at info)")
	root.PersistentFlags().BoolVarP(&a.silent, "quiet", "q", false, "log no progress, only warnings and errors (--log-level overrides it)")
	root.PersistentFlags().StringVar(&a.cpuProfile, "cpuprofile", "", "write a CPU profile (for 'go tool pprof') to this file")
	root.SuggestionsMinimumDistance = 2 // cobra's SuggestionsFor suggests nothing at 0
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// "gwf clsuter --dataset X": the flags of a mistyped command are unknown to the root;
		// the command is the mistake to report.
		if args := cmd.Flags().Args(); !cmd.HasParent() && len(args) > 0 {
			return noArgs(cmd, args)
		}
		return usageError{suggestFlag(cmd, err)}
	})
	root.AddCommand(newGWCmd(a), newDatasetsCmd(), newFitCmd(a), newEmbedCmd(a), newClusterCmd(a), newClassifyCmd(a), newSemisupCmd(a), newPredictCmd(a), newPlotCmd(a), newBenchCmd(a), newGenerateCmd(a), newPairwiseCmd(a), newMergeCmd(a), newPoolCmd(a), newVersionCmd())
	return root, a
}

// observer logs the events of long work (progresslog.Observer): steps as lines named step,
// with the given fields (nil for none). --quiet sets the log level that leaves out all but
// warnings.
func (a *app) observer(step string, fields logrus.Fields) training.Observer {
	return progresslog.Observer(a.log, step, 1, fields)
}

// finish ends what the persistent flags started (the signal watch, the CPU profile) and says
// when err came from an interrupt; it runs after every command, failed ones included.
func (a *app) finish(err error) error {
	if w := a.signals; w.stop != nil {
		var ie interruptedError
		var ue usageError
		if err != nil && w.ctx.Err() != nil && !errors.As(err, &ie) && !errors.As(err, &ue) { // before stop cancels it
			err = interruptedError{"interrupted: " + w.lost}
		}
		w.stop()
		a.signals = signalWatch{}
	}
	if a.stopProfile == nil {
		return err
	}
	perr := a.stopProfile()
	a.stopProfile = nil
	if err == nil {
		err = perr
	}
	return err
}

// withSignals returns a context cancelled on SIGINT or SIGTERM; a second signal aborts the
// process at once (exit status 130). Call stop when done.
func withSignals(parent context.Context, log *logrus.Logger) (ctx context.Context, stop func()) {
	return watchSignals(parent, log, func() { os.Exit(exitInterrupted) })
}

// watchSignals is withSignals with the abort action given. The second signal is handled here
// rather than by restoring the default action: a process started with SIGINT ignored (a
// background job of a non-interactive shell, nohup) would go back to ignoring it, and an
// interrupt would never end a batch that does not end.
func watchSignals(parent context.Context, log *logrus.Logger, abort func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	finished, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for n := 1; ; n++ {
			select {
			case s := <-sigs:
				if n == 1 {
					log.Warnf("interrupted (%v): stopping after the graphs being computed (interrupt again to abort at once)", s)
					cancel()
					continue
				}
				log.Errorf("interrupted again (%v): aborting; the output holds the last checkpoint", s)
				abort()
				return
			case <-finished:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(finished)
		<-done
		cancel()
	}
}

// execute runs root on args and turns the outcome into an exit status, printing errors as
// "gwf: <message>" on stderr.
func execute(ctx context.Context, root *cobra.Command, a *app, args []string, stdout, stderr io.Writer) (code int) {
	if moved, ok := semisupOfClassify(args); ok {
		a.log.SetOutput(stderr) // before the flags are parsed: a warning shows at every level
		a.log.Warn("'gwf classify --method gwf' is now 'gwf semisup': running that (the old form will go)")
		args = moved
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	defer func() {
		// A safety net: bad input must never end in a crash dump.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gwf: internal error: %v\n%s", r, debug.Stack())
			code = exitError
		}
	}()
	cmd, err := root.ExecuteContextC(ctx)
	err = a.finish(err)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "gwf: %v\n", err)
	if hint := formatHint(err); hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	var ue usageError
	var ie interruptedError
	switch {
	case errors.Is(err, training.ErrModelTooLarge): // the library's check of the settings
		fmt.Fprintln(stderr, "lower --atoms or --atom-size")
		return exitUsage
	case errors.As(err, &ue):
		if cmd != nil {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
		return exitUsage
	case errors.As(err, &ie):
		return exitInterrupted
	}
	return exitError
}

// semisupOfClassify rewrites 'gwf classify --method gwf ...', the form the semi-supervised
// GWF model had before it became its own command, as 'gwf semisup ...', so that scripts keep
// working; ok is false for any other command line.
func semisupOfClassify(args []string) (moved []string, ok bool) {
	cmd := -1
	for i := 0; i < len(args) && cmd < 0; i++ {
		switch {
		case args[i] == "--log-level" || args[i] == "--cpuprofile":
			i++ // the flag's value
		case !strings.HasPrefix(args[i], "-"):
			cmd = i
		}
	}
	if cmd < 0 || args[cmd] != "classify" {
		return args, false
	}
	for i := cmd + 1; i < len(args) && args[i] != "--"; i++ {
		n := 0
		switch {
		case args[i] == "--method=gwf":
			n = 1
		case args[i] == "--method" && i+1 < len(args) && args[i+1] == "gwf":
			n = 2
		}
		if n > 0 {
			return slices.Concat(args[:cmd], []string{"semisup"}, args[cmd+1:i], args[i+n:]), true
		}
	}
	return args, false
}

// modelFormats say, for each file format of gwf, what the file is and which commands make and
// read it.
var modelFormats = map[string]string{
	"gwf-model":             "a GWF model, written by 'gwf fit' (read by gwf embed, gwf cluster --model, gwf fit --resume)",
	"gwf-semisup-model":     "a semi-supervised GWF classifier, written by 'gwf semisup --labeled-fraction 1 --output' (read by gwf predict)",
	"gwf-fgwsvm-classifier": "an fgw-svm classifier, written by 'gwf classify --labeled-fraction 1 --output' (read by gwf predict)",
}

// formatHint explains a file of the wrong kind: what it is, and what makes the one asked for.
func formatHint(err error) string {
	var fe *envelope.FormatError
	if !errors.As(err, &fe) {
		return ""
	}
	got, ok := modelFormats[fe.Got]
	if !ok {
		return ""
	}
	hint := "The file is " + got + "."
	switch fe.Want {
	case "gwf-model":
		hint += " This needs " + modelFormats[fe.Want] + "."
	case "gwf-semisup-model", "gwf-fgwsvm-classifier": // gwf predict reads both
		hint += " This needs a classifier, written by 'gwf classify' or 'gwf semisup' with --labeled-fraction 1 --output."
	}
	return hint
}

// noArgs refuses positional arguments with a usage error, suggesting a command for a typo.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.HasAvailableSubCommands() {
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usageError{errors.New(msg)}
	}
	return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args)
}

// exactArgs requires n positional arguments (usage error otherwise).
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s needs %d arguments, got %d", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}

// versionString is the build's version (buildinfo.Version), as reports record it.
func versionString() string { return buildinfo.Version() }

// newVersionCmd is "gwf version": the version of the build, as --version prints it.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of gwf (module version, VCS revision, Go version, kernels)",
		Long: `version prints the module version from the build information ("(devel)" for a build from
a source tree; the tag for 'go install github.com/gwf-graphs/gwf/cmd/gwf@vX.Y.Z'), the VCS
revision when known, the Go version and the matrix kernels in use.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "gwf version", versionString()) // as --version prints it
			return err
		},
	}
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

// changed reports whether the flag name was set on the command line.
func changed(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}

// renamedTo annotates a flag kept under its old name: the new name.
const renamedTo = "gwf-renamed-to"

// renamedFlag registers old as a hidden alias of the flag now called name: scripts that use
// it keep working, with a warning in the log (cobra's own deprecation note goes to stdout,
// where it would corrupt an output), and --help shows only the new name.
func renamedFlag(fs *pflag.FlagSet, name, old string) {
	f := fs.Lookup(name)
	fs.AddFlag(&pflag.Flag{Name: old, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue, Hidden: true,
		Annotations: map[string][]string{renamedTo: {name}}})
}

// warnRenamed logs a warning for each old flag name given.
func warnRenamed(fs *pflag.FlagSet, log *logrus.Logger) {
	fs.Visit(func(f *pflag.Flag) {
		if to := f.Annotations[renamedTo]; len(to) == 1 {
			log.Warnf("--%s is now --%s; the old name will go", f.Name, to[0])
		}
	})
}
