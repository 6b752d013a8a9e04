package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/progresslog"
)

// app is what the commands of one tree share: cli.App's logger (Log), flags and signal watch.
type app struct {
	*cli.App
}

// newRootCmd builds the whole command tree and the state its commands share.
func newRootCmd() (*cobra.Command, *app) {
	a := &app{App: cli.NewApp()}
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
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	a.Attach(root)
	root.SuggestionsMinimumDistance = 2 // cobra's SuggestionsFor suggests nothing at 0
	root.AddCommand(newGWCmd(a), newDatasetsCmd(), newFitCmd(a), newEmbedCmd(a), newClusterCmd(a), newClassifyCmd(a), newSemisupCmd(a), newPredictCmd(a), newPlotCmd(a), newBenchCmd(a), newGenerateCmd(a), newPairwiseCmd(a), newMergeCmd(a), newPoolCmd(a), newVersionCmd())
	return root, a
}

// observer logs the events of long work (progresslog.Observer): steps as lines named step,
// with the given fields (nil for none). --quiet sets the log level that leaves out all but
// warnings.
func (a *app) observer(step string, fields logrus.Fields) training.Observer {
	return progresslog.Observer(a.Log, step, 1, fields)
}

// execute runs root on args and returns the exit status (cli.App.Execute), with a hint for
// a model file of the wrong kind and for settings too large for memory.
func execute(ctx context.Context, root *cobra.Command, a *app, args []string, stdout, stderr io.Writer) int {
	return a.Execute(ctx, root, args, stdout, stderr, func(err error) (string, bool) {
		if errors.Is(err, training.ErrModelTooLarge) { // the library's check of the settings
			return "lower --atoms or --atom-size", true
		}
		return formatHint(err), false
	})
}

// modelFormats say, for each file format of gwf, what the file is and which commands make and
// read it.
var modelFormats = map[string]string{
	"gwf-model":              "a GWF model, written by 'gwf fit' (read by gwf embed, gwf plot, gwf fit --resume)",
	"gwf-semisup-model":      "a semi-supervised GWF classifier, written by 'gwf semisup --method gwf --labeled-fraction 1 --output' (read by gwf predict)",
	"gwf-fgwsvm-classifier":  "an fgw-svm classifier, written by 'gwf classify --labeled-fraction 1 --output' (read by gwf predict)",
	"gwf-templates-model":    "a single template model, written by semisup.TemplateModel.Save (read by gwf predict)",
	"gwf-templates-ensemble": "a template classifier, written by 'gwf semisup --method templates --labeled-fraction 1 --output' (read by gwf predict)",
}

// formatHint explains a file of the wrong kind: what it is, and what makes the one asked for.
func formatHint(err error) string {
	var fe *sealedfile.FormatError
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
