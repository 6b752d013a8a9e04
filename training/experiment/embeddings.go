package experiment

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/sbinet/npyio/npy"
	"github.com/sbinet/npyio/npz"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Embeddings are one embedding per graph with what identifies the graph, ready to export.
type Embeddings struct {
	Kind   training.Embedding // z or lambda: names the columns z0, z1, ... or lambda0, ...
	Names  []string           // graph names
	Labels []string           // the dataset's own class labels as text ("" for none)
	Rows   [][]float64        // one embedding per graph
	Assign []int              // the cluster of every graph, or nil
}

// NewEmbeddings pairs rows (one per graph of ds, in order) with the graphs' names and class
// labels as the dataset's files write them (MUTAG's -1 and 1, not the 0-based indices).
func NewEmbeddings(ds *graphs.Dataset, kind training.Embedding, rows [][]float64) Embeddings {
	e := Embeddings{Kind: kind, Rows: rows}
	for _, g := range ds.Graphs {
		e.Names = append(e.Names, g.Name)
		e.Labels = append(e.Labels, LabelText(ds, g))
	}
	return e
}

// LabelText is g's class label as the dataset's files write it, "" when it has none.
func LabelText(ds *graphs.Dataset, g *graphs.Graph) string { return ds.ClassName(g) }

// Dim is the length of the embeddings (0 when there are none).
func (e Embeddings) Dim() int {
	if len(e.Rows) == 0 {
		return 0
	}
	return len(e.Rows[0])
}

// check reports inconsistent lengths.
func (e Embeddings) check() error {
	n := len(e.Rows)
	if len(e.Names) != n || len(e.Labels) != n || (e.Assign != nil && len(e.Assign) != n) {
		return fmt.Errorf("embeddings: %d rows, %d names, %d labels, %d clusters", n, len(e.Names), len(e.Labels), len(e.Assign))
	}
	for i, r := range e.Rows {
		if len(r) != e.Dim() {
			return fmt.Errorf("embeddings: row %d has %d values, row 0 %d", i, len(r), e.Dim())
		}
	}
	return nil
}

// WriteCSV writes the header "graph,label[,cluster],<kind>0,..." and one row per graph.
func (e Embeddings) WriteCSV(w io.Writer) error {
	if err := e.check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	header := []string{"graph", "label"}
	if e.Assign != nil {
		header = append(header, "cluster")
	}
	for j := 0; j < e.Dim(); j++ {
		header = append(header, string(e.Kind)+strconv.Itoa(j))
	}
	cw.Write(header)
	for i, row := range e.Rows {
		rec := []string{e.Names[i], e.Labels[i]}
		if e.Assign != nil {
			rec = append(rec, strconv.Itoa(e.Assign[i]))
		}
		for _, v := range row {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return nil
}

// matrix is the rows as one (graphs × dim) matrix.
func (e Embeddings) matrix() *mat.Dense {
	if len(e.Rows) == 0 {
		return &mat.Dense{}
	}
	m := mat.NewDense(len(e.Rows), e.Dim(), nil)
	for i, r := range e.Rows {
		m.SetRow(i, r)
	}
	return m
}

// WriteNPY writes the embeddings alone as a NumPy .npy array of shape (graphs, dim), float64,
// graphs in order.
func (e Embeddings) WriteNPY(w io.Writer) error {
	if err := e.check(); err != nil {
		return err
	}
	if len(e.Rows) == 0 {
		return fmt.Errorf("npy: no embeddings to write")
	}
	return npy.Write(w, e.matrix())
}

// WriteNPZ writes a NumPy .npz archive (numpy.load reads it) of: "embeddings" (graphs × dim,
// float64; the columns are z or lambda as Kind says), "graphs" (the names), "labels" (the
// dataset's own class labels as text, "" for none) and, when clustered, "clusters" (int64).
func (e Embeddings) WriteNPZ(w io.Writer) error {
	if err := e.check(); err != nil {
		return err
	}
	if len(e.Rows) == 0 {
		return fmt.Errorf("npz: no embeddings to write")
	}
	zw := npz.NewWriter(w)
	err := zw.Write("embeddings.npy", e.matrix())
	if err == nil {
		err = zw.Write("graphs.npy", e.Names)
	}
	if err == nil {
		err = zw.Write("labels.npy", e.Labels)
	}
	if err == nil && e.Assign != nil {
		clusters := make([]int64, len(e.Assign))
		for i, c := range e.Assign {
			clusters[i] = int64(c)
		}
		err = zw.Write("clusters.npy", clusters)
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	return err
}

// EmbedOptions say how Embed computes embeddings of graphs that are not the model's training
// data.
type EmbedOptions struct {
	// Steps is the number of Adam steps per graph in transform mode (0: the model's epochs).
	Steps int
	// Transform embeds the graphs anew even when they are the model's training data.
	Transform bool
	// Workers and Observe are training.Options'.
	Workers int
	Observe training.Observer
}

// Embed returns the embeddings z of data under m, one row per graph: the trained m.Z when data
// are the model's training data (the same graphs in the same order, by training.Fingerprint)
// and opt.Transform is off; otherwise z computed with the atoms held fixed
// (training.Transform), and transformed is true.
func Embed(ctx context.Context, m *training.Model, data []*graphs.Graph, opt EmbedOptions) (z *mat.Dense, transformed bool, err error) {
	if opt.Steps < 0 || opt.Workers < 0 {
		return nil, false, fmt.Errorf("embed: steps = %d and workers = %d must not be negative", opt.Steps, opt.Workers)
	}
	if !opt.Transform && IsTrainingData(m, data) {
		return m.Z, false, nil
	}
	steps := opt.Steps
	if steps == 0 {
		steps = m.Config.Epochs
	}
	z, err = training.Transform(ctx, m, data, steps, training.Options{Workers: opt.Workers, Observe: opt.Observe})
	if err != nil {
		return nil, true, fmt.Errorf("embed: transform: %w", err)
	}
	return z, true, nil
}

// IsTrainingData reports whether data are the graphs m was trained on, in the same order (by
// training.Fingerprint), so that m.Z holds their embeddings.
func IsTrainingData(m *training.Model, data []*graphs.Graph) bool {
	ok, _ := m.TrainedOn(graphs.Slice(data)) // a slice cannot fail to read
	return ok
}
