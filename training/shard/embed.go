package shard

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/training"
)

// DefaultChunk is the number of graphs Embed reads and embeds at a time when Options.Chunk is 0.
const DefaultChunk = 1024

// Options controls Embed.
type Options struct {
	// Steps are the Adam steps per graph (training.Transform; ≤ 0: the model's epochs).
	Steps int
	// Chunk is the number of graphs read and embedded at a time (0: DefaultChunk): memory
	// holds one chunk's graphs and embeddings, whatever the size of the corpus or the shard.
	Chunk int
	// Training is passed to training.Transform (Workers, SkipNonFinite, Warn, Progress);
	// Offset is set by Embed.
	Training training.Options
}

// Chunk is one slice of embedded graphs.
type Chunk struct {
	// Offset is the position of the chunk's first graph in the corpus (after Subset).
	Offset int
	// Total is the number of graphs in the corpus; the shard holds [First, End).
	Total, First, End int
	// Data are the chunk's graphs, read with the spec (Data.Graphs[i] is graph Offset+i).
	Data *graphs.Dataset
	// Z are their embeddings, one row per graph.
	Z *mat.Dense
}

// Embed embeds the shard s of the collection spec under the model m: the graphs of s.Range, read
// Options.Chunk at a time (collection.Chunks: a TU folder in one pass, other collections read
// again for each chunk), each chunk's embeddings computed by training.Transform with the chunk's
// offset, so they are the very rows a single Transform of the whole corpus gives. sink gets the
// chunks in order; Embed returns the corpus size and the shard's range (sink is never called for
// an empty shard). The spec must not set Window (Embed does), nor Standardize without an
// Encoding (standardizing a chunk is not standardizing the corpus; the means and scales of an
// Encoding, the model's, are the same for every chunk).
func Embed(ctx context.Context, m *training.Model, spec collection.Spec, s Shard, opt Options, sink func(Chunk) error) (total, lo, hi int, err error) {
	if err := s.Validate(); err != nil {
		return 0, 0, 0, err
	}
	switch {
	case spec.Window != nil:
		return 0, 0, 0, errors.New("shard: the spec sets Window; Embed chooses the window")
	case spec.Standardize && spec.Encoding == nil:
		return 0, 0, 0, errors.New("shard: Standardize standardizes over the graphs read, a chunk here, so the embeddings would depend on the sharding: give the model's Encoding (its training data's means and scales) or standardize the data files")
	case opt.Chunk < 0:
		return 0, 0, 0, fmt.Errorf("shard: negative chunk size %d", opt.Chunk)
	}
	chunk := opt.Chunk
	if chunk == 0 {
		chunk = DefaultChunk
	}
	total, lo, hi, err = collection.Chunks(spec, chunk, s.Range, func(c collection.Chunk) error {
		end := c.Start + len(c.Data.Graphs)
		topt := opt.Training
		topt.Offset = c.Start
		z, err := training.Transform(ctx, m, c.Data.Graphs, opt.Steps, topt)
		if err != nil {
			return fmt.Errorf("graphs %d..%d: %w", c.Start, end-1, err)
		}
		if err := sink(Chunk{Offset: c.Start, Total: c.Total, First: c.Lo, End: c.Hi, Data: c.Data, Z: z}); err != nil {
			return err
		}
		collect()
		return nil
	})
	if err != nil {
		return total, lo, hi, fmt.Errorf("shard %s: %w", s, err)
	}
	return total, lo, hi, nil
}

// collect runs the garbage collector between chunks. The trainer's expression graphs are freed
// only a GC cycle or two after their chunk, so without it the collector's target, set from the
// heap it last found live, creeps up over a long shard (docs/scale.md has the measurement);
// one collection per chunk costs milliseconds against seconds of embedding.
func collect() { runtime.GC() }
