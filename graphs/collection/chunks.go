package collection

import (
	"errors"
	"fmt"
	"os"

	"github.com/gwf-graphs/gwf/graphs"
)

// Chunk is one part of a collection read by Chunks.
type Chunk struct {
	// Total is the number of graphs the spec keeps; the span read is [Lo, Hi).
	Total, Lo, Hi int
	// Start is the position among the graphs kept of Data.Graphs[0].
	Start int
	// Data are the chunk's graphs, with the collection's description (name, classes, feature
	// encoding) and the nodes of these graphs whose label the Encoding did not know.
	Data *graphs.Dataset
}

// Chunks reads the graphs spec keeps, in order, chunk graphs at a time, and calls fn with each
// chunk: memory holds one chunk, whatever the size of the collection. span, when not nil,
// narrows the graphs read to [lo, hi) = span(total) of the total kept (a shard). A TU folder is
// read once, graph after graph (graphs.TUScanner), skipping the graphs before the span and those
// Subset leaves out; other collections are read again for each chunk, keeping only its graphs
// (Window). Chunks returns the total and the span; fn is never called for an empty span.
//
// The spec must not set Window (Chunks does), nor Standardize without an Encoding:
// standardizing a chunk is not standardizing the collection, while the means and scales of an
// Encoding (a model's) are the same for every chunk.
func Chunks(spec Spec, chunk int, span func(total int) (lo, hi int), fn func(Chunk) error) (total, lo, hi int, err error) {
	switch {
	case spec.Window != nil:
		return 0, 0, 0, errors.New("collection: the spec sets Window; Chunks chooses the windows")
	case spec.Standardize && spec.Encoding == nil:
		return 0, 0, 0, errors.New("collection: Standardize would standardize over each chunk alone: give the Encoding whose means and scales to use")
	case chunk <= 0:
		return 0, 0, 0, fmt.Errorf("collection: chunk size %d is not positive", chunk)
	}
	if err := spec.Validate(); err != nil {
		return 0, 0, 0, err
	}
	if span == nil {
		span = func(total int) (int, int) { return 0, total }
	}
	if info, err := os.Stat(spec.TU); spec.TU != "" && err == nil && info.IsDir() {
		return scanChunks(spec, chunk, span, fn)
	}
	total = -1
	for next := 0; total < 0 || next < hi; {
		// The total is known once the first read has counted it; each chunk's window is
		// fixed then.
		start := next
		spec.Window = func(kept int) (int, int) {
			if total < 0 {
				total = kept
				lo, hi = span(total)
				start = lo
			}
			if kept != total {
				return 0, 0 // the files changed under us: caught below
			}
			return start, min(start+chunk, hi)
		}
		ds, err := Load(spec)
		if err != nil {
			return total, lo, hi, err
		}
		end := start + len(ds.Graphs)
		if end != min(start+chunk, hi) {
			return total, lo, hi, fmt.Errorf("collection %s changed while it was read (%d graphs at first)", ds.Name, total)
		}
		if end == start {
			break // an empty span
		}
		if err := fn(Chunk{Total: total, Lo: lo, Hi: hi, Start: start, Data: ds}); err != nil {
			return total, lo, hi, err
		}
		next = end
	}
	return total, lo, hi, nil
}

// scanChunks is Chunks for a TU folder: one pass of a graphs.TUScanner.
func scanChunks(spec Spec, chunk int, span func(int) (int, int), fn func(Chunk) error) (total, lo, hi int, err error) {
	topts := graphs.TUOptions{Features: spec.Features, Limits: spec.Limits}
	if spec.Encoding != nil {
		topts.NodeLabels = spec.Encoding.NodeLabels
	}
	sc, err := graphs.NewTUScanner(spec.TU, topts)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("collection: %w", err)
	}
	defer sc.Close()
	kept := spec.Pick(sc.Len())
	total = len(kept)
	lo, hi = span(total)
	if lo < 0 || hi < lo || hi > total {
		return total, lo, hi, fmt.Errorf("collection: span [%d, %d) is not a slice of the %d graphs kept", lo, hi, total)
	}
	maxBytes := spec.Limits.OrDefault().MaxDenseBytes
	next := 0 // the file's next graph
	for start := lo; start < hi; {
		end := min(start+chunk, hi)
		ds := *sc.Dataset()
		ds.Encoding = ds.Encoding.Clone()
		ds.Graphs = nil
		unknown := sc.UnknownNodeLabels()
		var bytes int64
		for k := start; k < end; k++ {
			for ; next < kept[k]; next++ {
				if err := sc.Skip(); err != nil {
					return total, lo, hi, fmt.Errorf("collection: %w", err)
				}
			}
			g, err := sc.Next()
			if err != nil {
				return total, lo, hi, fmt.Errorf("collection: %w", err)
			}
			next++
			if bytes += g.Bytes(); bytes > maxBytes {
				return total, lo, hi, fmt.Errorf("collection: the %d graphs of a chunk from %d need more than the %d bytes allowed: use a smaller chunk (or raise the limit)", end-start, start, maxBytes)
			}
			ds.Graphs = append(ds.Graphs, g)
		}
		ds.UnknownNodeLabels = sc.UnknownNodeLabels() - unknown
		if spec.Standardize { // with the Encoding's means and scales (checked above)
			if err := graphs.ApplyStandardization(ds.Graphs, spec.Encoding.Mean, spec.Encoding.Scale); err != nil {
				return total, lo, hi, fmt.Errorf("collection: graphs %d..%d: %w", start, end-1, err)
			}
			ds.Encoding.Mean, ds.Encoding.Scale = spec.Encoding.Mean, spec.Encoding.Scale
		}
		if err := spec.applyStructure(&ds); err != nil {
			return total, lo, hi, err
		}
		if err := fn(Chunk{Total: total, Lo: lo, Hi: hi, Start: start, Data: &ds}); err != nil {
			return total, lo, hi, err
		}
		start = end
	}
	return total, lo, hi, nil
}
