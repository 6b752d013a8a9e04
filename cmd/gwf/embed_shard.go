package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

// shardFlags say which slice of the corpus "gwf embed" embeds, and in chunks of what size.
type shardFlags struct {
	shard  string
	shards int
	chunk  int
}

func (s *shardFlags) register(fs *pflag.FlagSet) {
	s.registerShard(fs, "embed only shard i/n (0-based) of the corpus, streamed in --chunk graphs")
	fs.IntVar(&s.chunk, "chunk", 0, fmt.Sprintf("read and embed this many graphs at a time, so memory does not grow with the corpus (0: %d when sharded; implies transform mode)", shard.DefaultChunk))
}

// registerShard registers --shard (its usage starting with what a shard does) and --shards.
func (s *shardFlags) registerShard(fs *pflag.FlagSet, what string) {
	fs.StringVar(&s.shard, "shard", "", what+", into OUTPUT.shard-i-of-n.csv (join with 'gwf merge'); default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set")
	fs.IntVar(&s.shards, "shards", 0, "number of shards, with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions); checked against --shard and SLURM_ARRAY_TASK_COUNT")
}

// resolve returns the shard to embed and whether to stream at all: a --shard, a job-array
// variable or a --chunk each turn streaming on (--chunk alone: the whole corpus).
func (s *shardFlags) resolve(getenv func(string) string) (sh shard.Shard, from string, on bool, err error) {
	if s.chunk < 0 {
		return sh, "", false, cli.Usagef("--chunk must not be negative")
	}
	sh, on, err = shard.Resolve(s.shard, s.shards, getenv)
	switch {
	case err != nil:
		return sh, "", false, cli.Usagef("--shard/--shards: %w", err)
	case s.shard != "":
		from = "--shard"
	case on:
		from = "the job-array environment"
	default:
		from, on = "--chunk", s.chunk > 0
	}
	return sh, from, on, nil
}

// runEmbedShard embeds one shard of the corpus chunk by chunk in transform mode, writing CSV
// rows as each chunk is done into OUTPUT.shard-i-of-n.csv (OUTPUT itself for the whole
// corpus); the file appears only once complete.
func runEmbedShard(cmd *cobra.Command, a *app, f *embedFlags, sh shard.Shard, from string) error {
	emb, err := training.ParseEmbedding(f.embedding)
	if err != nil {
		return cli.Usagef("--embedding: %w", err)
	}
	format, err := outputFormat(f.format, f.output)
	switch {
	case err != nil:
		return err
	case format != "csv":
		return cli.Usagef("--shard and --chunk write CSV (join the parts with 'gwf merge'), not %s", format)
	case sh.Count > 1 && (f.output == "" || f.output == "-"):
		return cli.Usagef("--shard %s needs --output FILE: the shard writes FILE's part, FILE.shard-i-of-n.csv", sh)
	}
	// Read through the flag set, not embedFlags' fields, so this file does not depend on where
	// embed keeps its transform-mode flags.
	steps, err1 := cmd.Flags().GetInt("steps")
	workers, err2 := cmd.Flags().GetInt("workers")
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if steps < 0 || workers < 0 {
		return cli.Usagef("--steps and --workers must not be negative")
	}
	output := f.output
	if sh.Count > 1 {
		output = shard.PartName(f.output, sh)
	}
	m, err := training.Load(f.model)
	if err != nil {
		return err
	}
	if err := f.data.useModelFeatures(a.Log, m.Features); err != nil {
		return err
	}
	a.Log.Infof("shard %s (from %s): transform mode, writing %s", sh, from, output)
	opt := shard.Options{Steps: steps, Chunk: f.shard.chunk, Training: training.Options{Workers: workers}}
	start := time.Now()
	done, unknown := 0, 0
	err = cli.WriteOutput(cmd.OutOrStdout(), output, func(w io.Writer) error {
		cw := shard.NewCSVWriter(w, emb, m.K())
		total, lo, hi, err := shard.Embed(cmd.Context(), m, f.data.spec(), sh, opt, func(c shard.Chunk) error {
			if err := cw.Write(c.Data, emb.Rows(c.Z)); err != nil {
				return err
			}
			done += len(c.Data.Graphs)
			unknown += c.Data.UnknownNodeLabels
			secs := time.Since(start).Seconds()
			a.Log.Infof("shard %s: embedded %d/%d graphs (graphs %d..%d of %d), %.1f graphs/s", sh, done, c.End-c.First, c.First, c.End-1, c.Total, float64(done)/secs)
			return nil
		})
		if err != nil {
			return err
		}
		if lo == hi {
			a.Log.Warnf("shard %s holds no graphs: the corpus has %d, fewer than the shards; writing the header only", sh, total)
		}
		return cw.Flush()
	})
	if err != nil {
		return err
	}
	warnUnknownNodeLabels(a.Log, unknown)
	secs := time.Since(start).Seconds()
	a.Log.Infof("shard %s: %d graphs embedded in %.1f s (%.2f graphs/s), written to %s", sh, done, secs, float64(done)/secs, output)
	return nil
}
