package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

func newDatasetsCmd() *cobra.Command {
	var asJSON bool
	var data dataFlags
	cmd := &cobra.Command{
		Use:   "datasets [--dataset NAME | --tu DIR|FILE.zip | --graphs DIR]",
		Short: "List the bundled datasets, or describe your own, with their statistics",
		Long: `datasets lists the graph datasets bundled with gwf (TU Dortmund benchmarks, usable offline
with --dataset NAME) and their statistics: number of graphs and classes, average nodes and
undirected edges per graph, number of distinct node labels (0: none) and node attribute
dimension (0: none).

With a data flag it reads that collection as the training commands would (same data flags,
--subset and limits included) and prints the same statistics for it: a quick check that your
TU folder, .zip or graph folder loads. Without --features it reads the node features the data
have, as classify does by default, and says which below the table; the node-label and
attribute columns give their widths. For TU data read without some of the node features
their files hold, a line below the table (or "offered_features" in the JSON) names them, and
another ("unread") names what no option reads: edge attributes, graph attributes. Edge
labels (bond types) are read and said so ("edge_labels"): 'gwf classify' compares them.`,
		Example: `  gwf datasets
  gwf datasets --json
  gwf datasets --graphs ./my-graphs
  gwf datasets --tu ./PROTEINS.zip --features attributes`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data.Dataset != "" || data.TU != "" || data.Graphs != "" {
				info, err := describeData(&data)
				if err != nil {
					return err
				}
				return writeDatasets(cmd.OutOrStdout(), []graphs.Description{info}, asJSON)
			}
			var infos []graphs.Description
			for _, name := range datasets.Names() {
				s, err := datasets.Info(name)
				if err != nil {
					return fmt.Errorf("dataset %s: %w", name, err)
				}
				infos = append(infos, s.Description)
			}
			return writeDatasets(cmd.OutOrStdout(), infos, asJSON)
		},
	}
	jsonFlag(cmd.Flags(), &asJSON, "the table (an array of datasets)")
	data.register(cmd.Flags())
	return cmd
}

// writeDatasets prints the statistics as a table or a JSON array.
func writeDatasets(out io.Writer, infos []graphs.Description, asJSON bool) error {
	write := func(w io.Writer) error { return graphs.WriteDescriptions(w, infos) }
	if asJSON {
		write = func(w io.Writer) error { return cli.WriteJSON(w, infos) }
	}
	if err := write(out); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// describeData loads the collection of the data flags, with the node features the data have
// unless --features is given, and describes it.
func describeData(data *dataFlags) (graphs.Description, error) {
	if err := data.check(); err != nil {
		return graphs.Description{}, err
	}
	data.EdgeLabels = true                        // say what 'gwf classify' reads
	data.PartialLabels = graphs.PartialLabelsKept // and which graphs it predicts
	ds, err := data.LoadAutoFeatures()
	if err != nil {
		return graphs.Description{}, err
	}
	used := ""
	if !data.FeaturesGiven {
		used = crossval.DescribeFeatures(ds.Encoding)
	}
	return graphs.Describe(ds, used), nil
}
