package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
)

// DefaultChunk is how many graphs FromCollection holds in memory at once.
const DefaultChunk = 1024

// FromCollection writes the graphs spec keeps (its Subset applied) to a new store at path,
// reading the collection once, chunk graphs at a time (collection.Chunks: a TU folder in one
// pass; 0: DefaultChunk), and opens it with opt. Features are stored as read; with
// spec.Standardize the store standardizes them as it reads them, with the means and scales of
// spec.Encoding when given, else those of all the graphs kept (graphs.Standardization, over the
// store). Graph i of the store is then graph i of collection.Load(spec), bit for bit.
//
// It returns the store and the collection's description: a Dataset without Graphs whose
// Encoding says how the features were made. On error no file is left at path.
func FromCollection(ctx context.Context, spec collection.Spec, path string, chunk int, opt Options) (*Store, *graphs.Dataset, error) {
	switch {
	case spec.Window != nil:
		return nil, nil, errors.New("store: the spec sets Window; FromCollection reads the whole collection")
	case chunk < 0:
		return nil, nil, fmt.Errorf("store: negative chunk %d", chunk)
	case chunk == 0:
		chunk = DefaultChunk
	}
	if err := spec.Validate(); err != nil {
		return nil, nil, err
	}
	// The graphs are stored raw; standardization happens as the store reads them.
	raw := spec
	raw.Standardize = false
	if e := spec.Encoding; e != nil {
		enc := e.Clone()
		enc.Mean, enc.Scale = nil, nil
		raw.Encoding = &enc
	}
	var w *Writer
	var meta *graphs.Dataset
	unknown := 0
	_, _, _, err := collection.Chunks(raw, chunk, nil, func(c collection.Chunk) error {
		if meta == nil {
			head := *c.Data
			head.Graphs = nil
			meta = &head
			var err error
			if w, err = Create(path, c.Data.Graphs[0].Dim()); err != nil {
				return err
			}
		}
		for _, g := range c.Data.Graphs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := w.Add(g); err != nil {
				return err
			}
		}
		unknown += c.Data.UnknownNodeLabels
		return nil
	})
	if err == nil && w == nil {
		err = errors.New("collection: no graphs to store")
	}
	if err == nil {
		err = w.Close()
	} else if w != nil {
		w.Abort()
	}
	if err != nil {
		return nil, nil, err
	}
	meta.UnknownNodeLabels = unknown
	s, err := finish(spec, path, meta, opt)
	if err != nil {
		os.Remove(path)
		return nil, nil, err
	}
	return s, meta, nil
}

// finish opens the written store, standardizing as spec asks.
func finish(spec collection.Spec, path string, meta *graphs.Dataset, opt Options) (*Store, error) {
	if !spec.Standardize {
		return Open(path, opt)
	}
	if e := spec.Encoding; e != nil {
		opt.Mean, opt.Scale = slices.Clone(e.Mean), slices.Clone(e.Scale)
	} else {
		raw, err := Open(path, Options{Limits: opt.Limits})
		if err != nil {
			return nil, err
		}
		opt.Mean, opt.Scale, err = meta.Encoding.Standardization(raw)
		raw.Close()
		if err != nil {
			return nil, fmt.Errorf("collection %s: %w", meta.Name, err)
		}
	}
	meta.Encoding.Mean, meta.Encoding.Scale = slices.Clone(opt.Mean), slices.Clone(opt.Scale)
	return Open(path, opt)
}
