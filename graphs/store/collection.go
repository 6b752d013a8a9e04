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

// DefaultChunk is how many graphs FromCollection holds at once when it reads a collection
// other than a TU folder.
const DefaultChunk = 1024

// FromCollection writes the graphs spec keeps (its Subset applied) to a new store at path,
// reading the collection once — a TU folder graph after graph (graphs.TUScanner), other
// collections chunk graphs at a time (collection.Spec.Window; 0: DefaultChunk) — and opens it
// with opt. Features are stored as read; with spec.Standardize the store standardizes them as
// it reads them, with the means and scales of spec.Encoding when given, else those of all the
// graphs kept (graphs.Standardization, over the store). Graph i of the store is then graph i
// of collection.Load(spec), bit for bit.
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
	sp := &spool{path: path, ctx: ctx}
	var meta *graphs.Dataset
	var err error
	if info, serr := os.Stat(spec.TU); spec.TU != "" && serr == nil && info.IsDir() {
		meta, err = sp.scan(spec)
	} else {
		meta, err = sp.windows(spec, chunk)
	}
	if err == nil && sp.w == nil {
		err = fmt.Errorf("collection: %s has no graphs", meta.Name)
	}
	if err == nil {
		err = sp.w.Close()
	} else if sp.w != nil {
		sp.w.Abort()
	}
	if err != nil {
		return nil, nil, err
	}
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
		opt.Mean, opt.Scale, err = graphs.Standardization(raw)
		raw.Close()
		if err != nil {
			return nil, fmt.Errorf("collection %s: %w", meta.Name, err)
		}
	}
	meta.Encoding.Mean, meta.Encoding.Scale = slices.Clone(opt.Mean), slices.Clone(opt.Scale)
	return Open(path, opt)
}

// spool writes the graphs read to the store, creating it with the first one's dimension.
type spool struct {
	path string
	ctx  context.Context
	w    *Writer
}

func (sp *spool) add(g *graphs.Graph) error {
	if err := sp.ctx.Err(); err != nil {
		return err
	}
	if sp.w == nil {
		var err error
		if sp.w, err = Create(sp.path, g.Dim()); err != nil {
			return err
		}
	}
	return sp.w.Add(g)
}

// scan spools a TU folder in one pass of a graphs.TUScanner, skipping the graphs Subset leaves
// out.
func (sp *spool) scan(spec collection.Spec) (*graphs.Dataset, error) {
	topts := graphs.TUOptions{Features: spec.Features, Limits: spec.Limits}
	if spec.Encoding != nil {
		topts.NodeLabels = spec.Encoding.NodeLabels
	}
	sc, err := graphs.NewTUScanner(spec.TU, topts)
	if err != nil {
		return nil, fmt.Errorf("collection: %w", err)
	}
	defer sc.Close()
	next := 0 // the file's next graph
	for _, k := range spec.Pick(sc.Len()) {
		for ; next < k; next++ {
			if err := sc.Skip(); err != nil {
				return nil, fmt.Errorf("collection: %w", err)
			}
		}
		g, err := sc.Next()
		if err != nil {
			return nil, fmt.Errorf("collection: %w", err)
		}
		next++
		if err := sp.add(g); err != nil {
			return nil, err
		}
	}
	meta := *sc.Dataset()
	meta.Encoding = meta.Encoding.Clone()
	meta.UnknownNodeLabels = sc.UnknownNodeLabels()
	return &meta, nil
}

// windows spools any other collection chunk graphs at a time, each chunk a read of the
// collection that keeps only its graphs.
func (sp *spool) windows(spec collection.Spec, chunk int) (*graphs.Dataset, error) {
	// Standardization happens on reading the store; the chunks are read raw.
	spec.Standardize = false
	if e := spec.Encoding; e != nil {
		raw := e.Clone()
		raw.Mean, raw.Scale = nil, nil
		spec.Encoding = &raw
	}
	var meta *graphs.Dataset
	unknown := 0
	total := -1
	for start := 0; total < 0 || start < total; start += chunk {
		spec.Window = func(kept int) (int, int) {
			if total < 0 {
				total = kept
			}
			if kept != total {
				return 0, 0 // the files changed under us: caught below
			}
			return start, min(start+chunk, total)
		}
		ds, err := collection.Load(spec)
		if err != nil {
			return nil, err
		}
		if len(ds.Graphs) != min(start+chunk, total)-start {
			return nil, fmt.Errorf("collection %s changed while it was read (%d graphs at first)", ds.Name, total)
		}
		for _, g := range ds.Graphs {
			if err := sp.add(g); err != nil {
				return nil, err
			}
		}
		unknown += ds.UnknownNodeLabels
		if meta == nil {
			head := *ds
			head.Graphs = nil
			meta = &head
		}
		if total == 0 {
			break
		}
	}
	meta.UnknownNodeLabels = unknown
	return meta, nil
}
