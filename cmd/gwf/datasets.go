package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// datasetInfo is one entry of "gwf datasets --json".
type datasetInfo struct {
	Name           string  `json:"name"`
	Graphs         int     `json:"graphs"`
	Classes        int     `json:"classes"`
	AvgNodes       float64 `json:"avg_nodes"`
	AvgEdges       float64 `json:"avg_edges"`
	MinNodes       int     `json:"min_nodes"`
	MaxNodes       int     `json:"max_nodes"`
	NodeLabels     int     `json:"node_labels"`
	NodeAttributes int     `json:"node_attributes"`
}

func newDatasetsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "datasets",
		Short: "List the bundled datasets with their statistics",
		Long: `datasets lists the graph datasets bundled with gwf (TU Dortmund benchmarks, usable offline
with --dataset NAME) and their statistics: number of graphs and classes, average nodes and
undirected edges per graph, number of distinct node labels (0: none) and node attribute
dimension (0: none).`,
		Example: `  gwf datasets
  gwf datasets --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var infos []datasetInfo
			for _, name := range datasets.Names() {
				s, err := datasets.Info(name)
				if err != nil {
					return fmt.Errorf("dataset %s: %w", name, err)
				}
				infos = append(infos, datasetInfo{
					Name: s.Name, Graphs: s.Graphs, Classes: s.Classes, AvgNodes: s.AvgNodes,
					AvgEdges: s.AvgEdges, MinNodes: s.MinNodes, MaxNodes: s.MaxNodes,
					NodeLabels: s.NodeLabels, NodeAttributes: s.NodeAttributes,
				})
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(out, infos); err != nil {
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
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of a table")
	return cmd
}
