package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/store"
)

// fitData are the graphs fit trains on: in memory, or (--stream) a store spooled from the
// collection and read batch by batch.
type fitData struct {
	src      graphs.Source
	name     string
	encoding *graphs.FeatureEncoding
	dim      int
	close    func() // removes the spool
}

// loadFitData reads the collection the data flags describe. With stream, it writes the graphs
// to a store file beside output (removed by close) and keeps none of them in memory.
func loadFitData(ctx context.Context, log *logrus.Logger, d *dataFlags, stream bool, output string) (*fitData, error) {
	if !stream {
		ds, err := d.loadTraining(log)
		if err != nil {
			return nil, err
		}
		data := ds.Graphs
		return &fitData{
			src: graphs.Slice(data), name: ds.Name, encoding: modelFeatures(ds), dim: data[0].Dim(), close: func() {},
		}, nil
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	spec := d.spec()
	// The spool goes beside the model: that folder is known to be writable, and a killed run
	// leaves its spool where the user looks.
	f, err := os.CreateTemp(filepath.Dir(output), ".gwf-stream-*.store")
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	path := f.Name()
	f.Close()
	st, meta, err := store.FromCollection(ctx, spec, path, 0, store.Options{Limits: spec.Limits})
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("load data: %w", err)
	}
	return &fitData{
		src: st, name: meta.Name, encoding: modelFeatures(meta), dim: st.Dim(),
		close: func() { st.Close(); os.Remove(path) },
	}, nil
}
