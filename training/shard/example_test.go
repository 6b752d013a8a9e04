package shard_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

// Which graphs each of 4 shards of a 10-graph corpus holds, and where it writes them.
func ExampleShard_Range() {
	for i := range 4 {
		s, err := shard.Parse(fmt.Sprintf("%d/4", i))
		if err != nil {
			log.Fatal(err)
		}
		lo, hi := s.Range(10)
		fmt.Printf("shard %s: graphs %d..%d into %s\n", s, lo, hi-1, shard.PartName("emb.csv", s))
	}
	// Output:
	// shard 0/4: graphs 0..1 into emb.shard-0-of-4.csv
	// shard 1/4: graphs 2..4 into emb.shard-1-of-4.csv
	// shard 2/4: graphs 5..6 into emb.shard-2-of-4.csv
	// shard 3/4: graphs 7..9 into emb.shard-3-of-4.csv
}

// Embed shard 1 of 2 of 30 MUTAG graphs, 8 graphs at a time, under a model trained on 10 of
// them, into the CSV of 'gwf embed'.
func ExampleEmbed() {
	sample, err := collection.Load(collection.Spec{Dataset: "MUTAG", Subset: 10})
	if err != nil {
		log.Fatal(err)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 8, 1
	m, err := training.NewModel(graphs.Slice(sample.Graphs), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(sample.Graphs), training.Options{}); err != nil {
		log.Fatal(err)
	}
	corpus := collection.Spec{Dataset: "MUTAG", Subset: 30}
	var out bytes.Buffer
	w := shard.NewCSVWriter(&out, training.EmbeddingLambda, m.K())
	var sizes []int
	_, _, _, err = shard.Embed(context.Background(), m, corpus, shard.Shard{Index: 1, Count: 2}, shard.Options{Chunk: 8}, func(c shard.Chunk) error {
		sizes = append(sizes, len(c.Data.Graphs))
		return w.Write(c.Data, training.EmbeddingLambda.Rows(c.Z))
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	fmt.Println(lines[0])
	fmt.Println(len(lines)-1, "rows, in chunks of", sizes, "graphs")
	// Output:
	// graph,label,lambda0,lambda1,lambda2
	// 15 rows, in chunks of [8 7] graphs
}
