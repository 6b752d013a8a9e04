package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training/experiment"
	"github.com/gwf-graphs/gwf/training/shard"
)

func newMergeCmd(a *app) *cobra.Command {
	var output, format string
	cmd := &cobra.Command{
		Use:   "merge --output FILE PART...",
		Short: "Join the CSV parts of a sharded 'gwf embed' or 'gwf pairwise' into one file",
		Long: `merge joins the outputs of 'gwf embed --shard i/n' or 'gwf pairwise --shard i/n' (or of a job
array, see docs/scale.md) into the file one run of the whole corpus writes, byte for byte: the
header once, then the rows of every part in shard order. With --output FILE.npz or FILE.npy (or --format) it writes instead
the .npz or .npy that 'gwf embed --output FILE.npz' writes, also byte for byte (embeddings
only); that holds every embedding in memory (K numbers per graph), the CSV merge only a buffer.

Parts named NAME.shard-i-of-n.csv, as embed names them, are put in shard order whatever the
order given, and all n must be there; parts named otherwise are joined in the order given.`,
		Example: `  gwf merge --output emb.csv emb.shard-*-of-4.csv
  gwf merge --output emb.npz emb.shard-*-of-4.csv
  gwf merge --output gwd.csv gwd.shard-*-of-4.csv`,
		Args: func(_ *cobra.Command, parts []string) error {
			if len(parts) == 0 {
				return cli.Usagef("give the parts to merge: gwf merge --output FILE PART...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, parts []string) error {
			format, err := outputFormat(format, output)
			if err != nil {
				return err
			}
			ordered, err := shard.Order(parts)
			if err != nil {
				return cli.Usage(err)
			}
			if format == "csv" {
				err = cli.WriteOutput(cmd.OutOrStdout(), output, func(w io.Writer) error { return shard.MergeCSV(w, ordered) })
			} else {
				var e experiment.Embeddings
				if e, err = shard.ReadCSV(ordered); err == nil {
					err = writeEmbeddings(cmd.OutOrStdout(), output, format, e)
				}
			}
			if err != nil {
				return err
			}
			a.Log.Infof("merged %d parts into %s", len(ordered), output)
			return nil
		},
	}
	outputFlag(cmd.Flags(), &output, "-", "merged file (- for stdout)")
	formatFlag(cmd.Flags(), &format)
	return cmd
}
