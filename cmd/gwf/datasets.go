package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/cli"
)

// datasetInfo is one entry of "gwf datasets --json".
type datasetInfo struct {
	graphs.Summary
	NodeLabels     int `json:"node_labels"`
	NodeAttributes int `json:"node_attributes"`
	// OfferedFeatures are the kinds of node features a TU dataset has but was read without.
	OfferedFeatures []string `json:"offered_features,omitempty"`
	// Features is what --features read when the data were described with their own.
	Features string `json:"features,omitempty"`
}

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
their files hold, a line below the table (or "offered_features" in the JSON) names them.`,
		Example: `  gwf datasets
  gwf datasets --json
  gwf datasets --graphs ./my-graphs
  gwf datasets --tu ./PROTEINS.zip --features attributes`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var infos []datasetInfo
			if data.Dataset != "" || data.TU != "" || data.Graphs != "" {
				info, err := describeData(cmd.Flags(), &data)
				if err != nil {
					return err
				}
				return writeDatasets(cmd.OutOrStdout(), []datasetInfo{info}, asJSON)
			}
			for _, name := range datasets.Names() {
				s, err := datasets.Info(name)
				if err != nil {
					return fmt.Errorf("dataset %s: %w", name, err)
				}
				infos = append(infos, datasetInfo{Summary: s.Summary, NodeLabels: s.NodeLabels, NodeAttributes: s.NodeAttributes})
			}
			return writeDatasets(cmd.OutOrStdout(), infos, asJSON)
		},
	}
	jsonFlag(cmd.Flags(), &asJSON, "the table (an array of datasets)")
	data.register(cmd.Flags())
	return cmd
}

// writeDatasets prints the statistics as a table or a JSON array.
func writeDatasets(out io.Writer, infos []datasetInfo, asJSON bool) error {
	if asJSON {
		if err := cli.WriteJSON(out, infos); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tgraphs\tclasses\tavg nodes\tavg edges\tnode labels\tattr dim\t")
	for _, s := range infos {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%d\t%d\t\n", s.Name, s.Graphs, s.Classes, s.AvgNodes, s.AvgEdges, s.NodeLabels, s.NodeAttributes)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	for _, s := range infos {
		if s.Features != "" {
			if _, err := fmt.Fprintf(out, "node features read: %s\n", s.Features); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
		if len(s.OfferedFeatures) > 0 && s.NodeLabels == 0 && s.NodeAttributes == 0 {
			kinds := s.OfferedFeatures
			if len(kinds) == 2 {
				kinds = slices.Concat(kinds, []string{"both"})
			}
			if _, err := fmt.Fprintf(out, "%s also has node features (%s), not read here: add --features %s\n",
				s.Name, strings.Join(s.OfferedFeatures, ", "), strings.Join(kinds, "|")); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
	}
	return nil
}

// describeData loads the collection of the data flags, with the node features the data have
// unless --features is given, and summarises it.
func describeData(fs *pflag.FlagSet, data *dataFlags) (datasetInfo, error) {
	if err := data.check(); err != nil {
		return datasetInfo{}, err
	}
	ds, used, err := data.LoadAutoFeatures(fs)
	if err != nil {
		return datasetInfo{}, err
	}
	s := graphs.Summarize(ds)
	info := datasetInfo{Summary: s, Features: used}
	if fs.Changed("features") {
		info.Features = ""
	}
	for _, k := range ds.Offered {
		info.OfferedFeatures = append(info.OfferedFeatures, k.String())
	}
	e := ds.Encoding
	switch {
	case e.Kind.HasLabels():
		info.NodeLabels = len(e.NodeLabels) + len(e.NodeLabelNames)
		info.NodeAttributes = e.Attributes
	case e.Kind == graphs.FeaturesAttributes:
		info.NodeAttributes = s.FeatureDim
	}
	return info, nil
}
