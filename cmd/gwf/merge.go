package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/training/shard"
)

func newMergeCmd(a *app) *cobra.Command {
	var output string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "merge --output FILE PART...",
		Short: "Join the CSV parts of a sharded 'gwf embed' into one file",
		Long: `merge joins the outputs of 'gwf embed --shard i/n' (or of a job array, see the README) into the
file one 'gwf embed' of the whole corpus writes, byte for byte: the header once, then the rows
of every part in shard order.

Parts named NAME.shard-i-of-n.csv, as embed names them, are put in shard order whatever the
order given, and all n must be there; parts named otherwise are joined in the order given.`,
		Example: `  gwf merge --output emb.csv emb.shard-*-of-4.csv`,
		Args: func(_ *cobra.Command, parts []string) error {
			if len(parts) == 0 {
				return usagef("give the parts to merge: gwf merge --output FILE PART...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, parts []string) error {
			a.quiet(cmd.Flags(), quiet)
			if ext := strings.ToLower(filepath.Ext(output)); ext == ".npy" || ext == ".npz" {
				return usagef("--output %s: merge writes CSV (the format of sharded embeddings)", output)
			}
			ordered, err := shard.Order(parts)
			if err != nil {
				return usageError{err}
			}
			if err := writeOutput(cmd.OutOrStdout(), output, func(w io.Writer) error { return shard.MergeCSV(w, ordered) }); err != nil {
				return err
			}
			a.log.Infof("merged %d parts into %s", len(ordered), output)
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "-", "merged CSV file (- for stdout)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not log")
	return cmd
}
