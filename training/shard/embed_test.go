package shard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/synthetic"
	"github.com/gwf-graphs/gwf/training"
)

// smallModel is a model with 3 atoms trained briefly on 16 MUTAG graphs.
func smallModel(t *testing.T) *training.Model {
	t.Helper()
	ds, err := collection.Load(collection.Spec{Dataset: "MUTAG", Subset: 16})
	if err != nil {
		t.Fatal(err)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs, cfg.Batch = 3, 8, 2, 8
	m, err := training.NewModel(graphs.Slice(ds.Graphs), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(ds.Graphs), training.Options{}); err != nil {
		t.Fatal(err)
	}
	return m
}

// embedCSV runs Embed for one shard and returns its CSV.
func embedCSV(t *testing.T, m *training.Model, spec collection.Spec, s Shard, chunk int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewCSVWriter(&buf, training.EmbeddingZ, m.K())
	chunks := 0
	_, _, _, err := Embed(context.Background(), m, spec, s, Options{Steps: 2, Chunk: chunk}, func(c Chunk) error {
		chunks++
		if r, _ := c.Z.Dims(); r != len(c.Data.Graphs) || r > chunk {
			t.Errorf("chunk at %d: %d rows for %d graphs (chunk size %d)", c.Offset, r, len(c.Data.Graphs), chunk)
		}
		return w.Write(c.Data, training.EmbeddingZ.Rows(c.Z))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEmbedShardsMergeToWhole: 3 shards embedded in chunks of 4 and merged are byte for byte the
// CSV of one Transform of the whole corpus, for a bundled dataset (read again per chunk) and a TU
// folder (scanned once), both through a --subset, so the window is applied after the subset.
func TestEmbedShardsMergeToWhole(t *testing.T) {
	m := smallModel(t)
	folder := filepath.Join(t.TempDir(), "SBM")
	syn := synthetic.Spec{Model: synthetic.SBM, Graphs: 40, MinNodes: 5, MaxNodes: 12, Classes: 2, PIn: 0.6, POut: 0.1, Seed: 2}
	if err := synthetic.Write(context.Background(), folder, "SBM", syn, graphs.TUWriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []collection.Spec{
		{Dataset: "MUTAG", Subset: 23, SubsetSeed: 9},
		{TU: folder, Subset: 23, SubsetSeed: 9},
	} {
		ds, err := collection.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		z, err := training.Transform(context.Background(), m, ds.Graphs, 2, training.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		w := NewCSVWriter(&want, training.EmbeddingZ, m.K())
		if err := w.Write(ds, training.EmbeddingZ.Rows(z)); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := embedCSV(t, m, spec, Whole(), 5); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s: one shard in chunks of 5 differs from one Transform:\n%s\nwant\n%s", ds.Name, got, want.Bytes())
		}
		dir := t.TempDir()
		var parts []string
		for i := range 3 {
			p := filepath.Join(dir, PartName("emb.csv", Shard{i, 3}))
			if err := os.WriteFile(p, embedCSV(t, m, spec, Shard{i, 3}, 4), 0o644); err != nil {
				t.Fatal(err)
			}
			parts = append([]string{p}, parts...) // reversed: Order sorts them
		}
		ordered, err := Order(parts)
		if err != nil {
			t.Fatal(err)
		}
		var merged bytes.Buffer
		if err := MergeCSV(&merged, ordered); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(merged.Bytes(), want.Bytes()) {
			t.Fatalf("%s: merged shards differ from one Transform:\n%s\nwant\n%s", ds.Name, merged.Bytes(), want.Bytes())
		}
		if lines := strings.Count(want.String(), "\n"); lines != 24 {
			t.Errorf("%s: %d lines, want a header and 23 rows", ds.Name, lines)
		}
	}
}

// TestEmbedEmptyShard: more shards than graphs leaves some empty, and Embed says so without
// calling the sink.
func TestEmbedEmptyShard(t *testing.T) {
	m := smallModel(t)
	spec := collection.Spec{Dataset: "MUTAG", Subset: 2}
	total, lo, hi, err := Embed(context.Background(), m, spec, Shard{0, 3}, Options{Steps: 1}, func(Chunk) error {
		t.Error("sink called for an empty shard")
		return nil
	})
	if err != nil || total != 2 || lo != hi {
		t.Errorf("Embed = %d, [%d, %d), %v", total, lo, hi, err)
	}
}

func TestEmbedRefuses(t *testing.T) {
	m := smallModel(t)
	for name, spec := range map[string]collection.Spec{
		"standardize": {Dataset: "MUTAG", Standardize: true},
		"window":      {Dataset: "MUTAG", Window: func(int) (int, int) { return 0, 1 }},
		"no data":     {},
	} {
		if _, _, _, err := Embed(context.Background(), m, spec, Whole(), Options{}, func(Chunk) error { return nil }); err == nil {
			t.Errorf("%s: Embed succeeded", name)
		}
	}
	spec := collection.Spec{Dataset: "MUTAG", Features: graphs.FeaturesLabels, Subset: 3}
	if _, _, _, err := Embed(context.Background(), m, spec, Whole(), Options{}, func(Chunk) error { return nil }); err == nil || !strings.Contains(err.Error(), "features") {
		t.Errorf("feature mismatch: err = %v", err)
	}
	if _, _, _, err := Embed(context.Background(), m, collection.Spec{Dataset: "MUTAG"}, Shard{2, 2}, Options{}, nil); err == nil {
		t.Error("shard 2/2 accepted")
	}
}

// TestEmbedScanChunkLimit: a TU folder's chunk over the memory limit is refused, with the
// advice to use a smaller chunk, and a folder not grouped by graph names its adjacency file.
func TestEmbedScanChunkLimit(t *testing.T) {
	m := smallModel(t)
	folder := filepath.Join(t.TempDir(), "BA")
	syn := synthetic.Spec{Model: synthetic.BA, Graphs: 10, MinNodes: 20, MaxNodes: 20, Classes: 1, Seed: 2}
	if err := synthetic.Write(context.Background(), folder, "BA", syn, graphs.TUWriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	ds, err := graphs.ReadTUPath(folder, graphs.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range ds.Graphs[1:] {
		if g.Bytes() != ds.Graphs[0].Bytes() {
			t.Fatalf("graphs of %d and %d bytes", g.Bytes(), ds.Graphs[0].Bytes())
		}
	}
	spec := collection.Spec{TU: folder, Limits: graphs.Limits{MaxDenseBytes: 5 * ds.Graphs[0].Bytes()}}
	sink := func(Chunk) error { return nil }
	if _, _, _, err := Embed(context.Background(), m, spec, Whole(), Options{Chunk: 8, Steps: 1}, sink); err == nil || !strings.Contains(err.Error(), "smaller chunk") {
		t.Errorf("chunk of 8 over a limit of 5 graphs: err = %v", err)
	}
	if _, _, _, err := Embed(context.Background(), m, spec, Whole(), Options{Chunk: 5, Steps: 1}, sink); err != nil {
		t.Errorf("chunk of 5 within the limit: %v", err)
	}
	a := filepath.Join(folder, "BA_A.txt")
	b, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	slices.Reverse(lines)
	if err := os.WriteFile(a, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Embed(context.Background(), m, collection.Spec{TU: folder}, Whole(), Options{Steps: 1}, sink); err == nil || !strings.Contains(err.Error(), "BA_A.txt") {
		t.Errorf("adjacency in reverse order: err = %v", err)
	}
}
