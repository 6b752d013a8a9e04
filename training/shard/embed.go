package shard

import (
	"context"
	"errors"
	"fmt"
	"os"
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
// Options.Chunk at a time, each chunk's embeddings computed by training.Transform with the
// chunk's offset, so they are the very rows a single Transform of the whole corpus gives. sink
// gets the chunks in order; Embed returns the corpus size and the shard's range (sink is never
// called for an empty shard). A TU folder is read once, graph after graph (graphs.TUScanner);
// other collections are read again for each chunk (collection.Spec.Window). The spec must not set Window (Embed does), nor
// Standardize without an Encoding (standardizing a chunk is not standardizing the corpus; the
// means and scales of an Encoding, the model's, are the same for every chunk).
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
	if info, err := os.Stat(spec.TU); spec.TU != "" && err == nil && info.IsDir() {
		return embedScan(ctx, m, spec, s, chunk, opt, sink)
	}
	// Other collections (zip archives, bundled datasets, graph folders) are read again for
	// every chunk, keeping only its graphs.
	total = -1
	for next := 0; total < 0 || next < hi; {
		// The corpus size is known once the first read has counted it; each chunk's window
		// is fixed then.
		start := next
		spec.Window = func(kept int) (int, int) {
			if total < 0 {
				total = kept
				lo, hi = s.Range(total)
				start = lo
			}
			if kept != total {
				return 0, 0 // the files changed under us: caught below
			}
			return start, min(start+chunk, hi)
		}
		ds, err := collection.Load(spec)
		if err != nil {
			return total, lo, hi, fmt.Errorf("shard %s: read graphs %d..: %w", s, start, err)
		}
		end := start + len(ds.Graphs)
		if end != min(start+chunk, hi) {
			return total, lo, hi, fmt.Errorf("shard %s: the collection changed while it was read (%d graphs at first)", s, total)
		}
		if end == start {
			break // an empty shard
		}
		topt := opt.Training
		topt.Offset = start
		z, err := training.Transform(ctx, m, ds.Graphs, opt.Steps, topt)
		if err != nil {
			return total, lo, hi, fmt.Errorf("shard %s: graphs %d..%d: %w", s, start, end-1, err)
		}
		if err := sink(Chunk{Offset: start, Total: total, First: lo, End: hi, Data: ds, Z: z}); err != nil {
			return total, lo, hi, err
		}
		next = end
		collect()
	}
	return total, lo, hi, nil
}

// embedScan is Embed for a TU folder: one pass of a graphs.TUScanner, skipping the graphs before
// the shard and those --subset leaves out.
func embedScan(ctx context.Context, m *training.Model, spec collection.Spec, s Shard, chunk int, opt Options, sink func(Chunk) error) (total, lo, hi int, err error) {
	if err := spec.Validate(); err != nil {
		return 0, 0, 0, err
	}
	topts := graphs.TUOptions{Features: spec.Features, Limits: spec.Limits}
	if spec.Encoding != nil {
		topts.NodeLabels = spec.Encoding.NodeLabels
	}
	sc, err := graphs.NewTUScanner(spec.TU, topts)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("shard %s: %w", s, err)
	}
	defer sc.Close()
	kept := spec.Pick(sc.Len())
	total = len(kept)
	lo, hi = s.Range(total)
	maxBytes := spec.Limits.MaxDenseBytes
	if maxBytes <= 0 {
		maxBytes = graphs.DefaultLimits.MaxDenseBytes
	}
	meta := sc.Dataset()
	next := 0 // the file's next graph
	for start := lo; start < hi; {
		end := min(start+chunk, hi)
		ds := &graphs.Dataset{Name: meta.Name, Classes: meta.Classes, NodeLabels: meta.NodeLabels, Encoding: meta.Encoding}
		unknown := sc.UnknownNodeLabels()
		var bytes int64
		for k := start; k < end; k++ {
			for ; next < kept[k]; next++ {
				if err := sc.Skip(); err != nil {
					return total, lo, hi, fmt.Errorf("shard %s: %w", s, err)
				}
			}
			g, err := sc.Next()
			if err != nil {
				return total, lo, hi, fmt.Errorf("shard %s: %w", s, err)
			}
			next++
			if bytes += g.Bytes(); bytes > maxBytes {
				return total, lo, hi, fmt.Errorf("shard %s: the %d graphs of a chunk from %d need more than the %d bytes allowed: use a smaller chunk (or raise the limit)", s, end-start, start, maxBytes)
			}
			ds.Graphs = append(ds.Graphs, g)
		}
		ds.UnknownNodeLabels = sc.UnknownNodeLabels() - unknown
		if spec.Standardize { // with the Encoding's means and scales (checked above)
			if err := graphs.ApplyStandardization(ds.Graphs, spec.Encoding.Mean, spec.Encoding.Scale); err != nil {
				return total, lo, hi, fmt.Errorf("shard %s: graphs %d..%d: %w", s, start, end-1, err)
			}
		}
		topt := opt.Training
		topt.Offset = start
		z, err := training.Transform(ctx, m, ds.Graphs, opt.Steps, topt)
		if err != nil {
			return total, lo, hi, fmt.Errorf("shard %s: graphs %d..%d: %w", s, start, end-1, err)
		}
		if err := sink(Chunk{Offset: start, Total: total, First: lo, End: hi, Data: ds, Z: z}); err != nil {
			return total, lo, hi, err
		}
		start = end
		collect()
	}
	return total, lo, hi, nil
}

// collect runs the garbage collector between chunks. The trainer's expression graphs are freed
// only a GC cycle or two after their chunk, so without it the collector's target, set from the
// heap it last found live, creeps up over a long shard (measured: 57 MiB after 2000 graphs,
// 100 MiB after 10 000); one collection per chunk costs milliseconds against seconds of
// embedding.
func collect() { runtime.GC() }
