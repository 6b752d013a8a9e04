package synthetic

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gwf-graphs/gwf/graphs"
)

// Model is a random-graph family.
type Model string

const (
	// SBM draws stochastic block models: a graph of class c has c+1 blocks of nearly equal
	// size, linked within a block with probability PIn and across blocks with POut.
	SBM Model = "sbm"
	// BA draws Barabási–Albert graphs: a graph of class c attaches every new node to c+1
	// existing ones (so at least Classes+1 nodes are needed).
	BA Model = "ba"
)

// Spec describes a corpus.
type Spec struct {
	Model  Model
	Graphs int // number of graphs, at least 1
	// Nodes of each graph, uniform in MinNodes..MaxNodes.
	MinNodes, MaxNodes int
	// Classes is the number of classes; graph i has class i mod Classes, so that every
	// contiguous slice of the corpus is balanced.
	Classes int
	// PIn and POut are the SBM's link probabilities within and across blocks.
	PIn, POut float64
	Seed      uint64
}

// Validate says what is wrong with the spec, if anything.
func (s Spec) Validate() error {
	switch {
	case s.Model != SBM && s.Model != BA:
		return fmt.Errorf("synthetic: unknown model %q (want sbm or ba)", s.Model)
	case s.Graphs < 1:
		return fmt.Errorf("synthetic: %d graphs, want at least 1", s.Graphs)
	case s.Classes < 1:
		return fmt.Errorf("synthetic: %d classes, want at least 1", s.Classes)
	case s.MinNodes < 1 || s.MaxNodes < s.MinNodes:
		return fmt.Errorf("synthetic: nodes %d..%d, want 1 <= min <= max", s.MinNodes, s.MaxNodes)
	case s.Model == BA && s.MinNodes <= s.Classes:
		return fmt.Errorf("synthetic: Barabási–Albert graphs of class %d attach each node to %d others, so they need more than %d nodes (min is %d)",
			s.Classes-1, s.Classes, s.Classes, s.MinNodes)
	case s.Model == SBM && !(s.PIn >= 0 && s.PIn <= 1 && s.POut >= 0 && s.POut <= 1):
		return fmt.Errorf("synthetic: link probabilities in %v and out %v, want both in [0, 1]", s.PIn, s.POut)
	}
	return nil
}

// Graph returns graph i of the corpus (0-based), labelled with its class; the spec must be
// valid.
func (s Spec) Graph(i int) (*graphs.Graph, error) {
	if i < 0 || i >= s.Graphs {
		return nil, fmt.Errorf("synthetic: graph %d out of range 0..%d", i, s.Graphs-1)
	}
	rng := rand.New(rand.NewPCG(s.Seed, uint64(i)))
	n := s.MinNodes + rng.IntN(s.MaxNodes-s.MinNodes+1)
	class := i % s.Classes
	var g *graphs.Graph
	var err error
	switch s.Model {
	case BA:
		g, err = graphs.BarabasiAlbert(n, class+1, rng)
	case SBM:
		blocks := min(class+1, n)
		sizes := make([]int, blocks)
		p := make([][]float64, blocks)
		for b := range sizes {
			sizes[b] = (b+1)*n/blocks - b*n/blocks
			p[b] = make([]float64, blocks)
			for c := range p[b] {
				p[b][c] = s.POut
			}
			p[b][b] = s.PIn
		}
		g, err = graphs.StochasticBlockModel(sizes, p, rng)
	default:
		err = s.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("synthetic: graph %d: %w", i, err)
	}
	g.Name = fmt.Sprintf("%s-%d", s.Model, i)
	g.Label, g.HasLabel = class, true
	return g, nil
}

// Write makes the corpus and writes it as the TU dataset name in the new folder dir (see
// graphs.NewTUWriter: dir must not exist, and appears only once complete). Memory does not
// depend on the number of graphs. progress, when not nil, is called with the number of graphs
// written every 1000 graphs and at the end.
func Write(ctx context.Context, dir, name string, s Spec, opt graphs.TUWriteOptions, progress func(done int)) error {
	if err := s.Validate(); err != nil {
		return err
	}
	w, err := graphs.NewTUWriter(dir, name, opt)
	if err != nil {
		return err
	}
	for i := range s.Graphs {
		if err := ctx.Err(); err != nil {
			w.Abort()
			return fmt.Errorf("synthetic: stopped after %d of %d graphs: %w", i, s.Graphs, err)
		}
		g, err := s.Graph(i)
		if err == nil {
			err = w.Write(g)
		}
		if err != nil {
			w.Abort()
			return err
		}
		if progress != nil && (i+1)%1000 == 0 && i+1 < s.Graphs {
			progress(i + 1)
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if progress != nil {
		progress(s.Graphs)
	}
	return nil
}
