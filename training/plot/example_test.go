package plot_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/plot"
)

// Draw a small MUTAG model's two most used atoms and its t-SNE picture coloured by class.
func ExampleAtoms() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	ds.Graphs = ds.Graphs[:30]
	data := ds.Graphs
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 10, 2
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		panic(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(data), training.Options{}); err != nil {
		panic(err)
	}
	var atoms, tsne bytes.Buffer // or files: any io.Writer
	if err := plot.Atoms(&atoms, m, m.Z, 2); err != nil {
		panic(err)
	}
	class, names := plot.Classes(ds) // "class -1", "class 1"
	err = plot.TSNE(&tsne, "MUTAG: t-SNE of λ", training.Lambda(m.Z), class, names, 1, 100)
	if err != nil {
		panic(err)
	}
	for _, b := range []*bytes.Buffer{&atoms, &tsne} {
		img, err := png.Decode(b)
		if err != nil {
			panic(err)
		}
		fmt.Println(img.Bounds().Dx(), "×", img.Bounds().Dy(), "pixels")
	}
	// Output:
	// 576 × 288 pixels
	// 576 × 384 pixels
}
