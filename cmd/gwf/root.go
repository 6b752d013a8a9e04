package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/internal/envelope"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/progresslog"
)

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
// cmd.Context(): the first signal cancels it, a second aborts at once (cli.WithSignals). A runtime
// error returned after an interrupt becomes "interrupted: "+lost (exit status 130), unless the
// command says more itself (a cli.InterruptedError). Commands without it end at the first signal.
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
		Args:          cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			lvl, err := logrus.ParseLevel(a.logLevel)
			if err != nil {
				return cli.Usagef("--log-level: %q is not one of panic, fatal, error, warn, info, debug, trace", a.logLevel)
			}
			if a.silent && !cli.Changed(cmd.Flags(), "log-level") {
				lvl = logrus.WarnLevel
			}
			a.log.SetLevel(lvl)
			a.log.SetOutput(cmd.ErrOrStderr())
			cli.WarnRenamed(cmd.Flags(), a.log)
			if a.cpuProfile != "" {
				if a.stopProfile, err = cli.StartCPUProfile(a.cpuProfile); err != nil {
					return err
				}
			}
			if lost, ok := cmd.Annotations[interruptibleKey]; ok {
				ctx, stop := cli.WithSignals(cmd.Context(), a.log)
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
	root.SetFlagErrorFunc(cli.FlagError)
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
		if err != nil && w.ctx.Err() != nil && !cli.IsInterrupted(err) && !cli.IsUsage(err) { // before stop cancels it
			err = cli.Interrupted("interrupted: " + w.lost)
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

// execute runs root on args and turns the outcome into an exit status, printing errors as
// "gwf: <message>" on stderr.
func execute(ctx context.Context, root *cobra.Command, a *app, args []string, stdout, stderr io.Writer) (code int) {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	defer func() {
		// A safety net: bad input must never end in a crash dump.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gwf: internal error: %v\n%s", r, debug.Stack())
			code = cli.ExitError
		}
	}()
	cmd, err := root.ExecuteContextC(ctx)
	err = a.finish(err)
	if err == nil {
		return cli.ExitOK
	}
	fmt.Fprintf(stderr, "gwf: %v\n", err)
	if hint := formatHint(err); hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	switch {
	case errors.Is(err, training.ErrModelTooLarge): // the library's check of the settings
		fmt.Fprintln(stderr, "lower --atoms or --atom-size")
		return cli.ExitUsage
	case cli.IsUsage(err):
		if cmd != nil {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
		return cli.ExitUsage
	case cli.IsInterrupted(err):
		return cli.ExitInterrupted
	}
	return cli.ExitError
}

// modelFormats say, for each file format of gwf, what the file is and which commands make and
// read it.
var modelFormats = map[string]string{
	"gwf-model":             "a GWF model, written by 'gwf fit' (read by gwf embed, gwf plot, gwf fit --resume)",
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
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "gwf version", versionString()) // as --version prints it
			return err
		},
	}
}
