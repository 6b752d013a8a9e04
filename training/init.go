package training

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// NewModel initialises a model for the graphs of src (graphs.Slice adapts a slice of graphs):
// warm-started atoms (K random observed graphs, drawn without replacement while there are
// enough) or random atoms of Config.AtomSize nodes, uniform atom distributions, and small random
// embeddings. It reads src through once (feature dimension, sizes and fingerprint), then the
// graphs the warm start draws: a disk-backed source (graphs/store) is read as it needs its
// graphs, not held in memory, and gives bit for bit the model the same graphs in memory give.
// It returns an error when cfg is invalid, src has no graphs, a graph has no nodes, the graphs'
// features differ in dimension, the model would be too large (CheckModelSize), or src fails to
// read a graph.
func NewModel(src graphs.Source, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	info, err := describe(src)
	if err != nil {
		return nil, err
	}
	dim := info.dim
	rng := initRNG(cfg)
	m := &Model{Config: cfg, Fingerprint: info.fingerprint}
	picks := warmPicks(cfg, src.Len(), rng)
	sizes := make([]int, cfg.Atoms)
	for k := range sizes {
		sizes[k] = cfg.AtomSize
		if picks != nil {
			sizes[k] = info.nodes[picks[k]]
		}
	}
	if err := CheckModelSize(cfg, dim, src.Len(), sizes); err != nil {
		return nil, err
	}
	for k := 0; k < cfg.Atoms; k++ {
		var v, h *mat.Dense
		if cfg.AtomSize == 0 {
			g, err := src.Graph(picks[k])
			if err != nil {
				return nil, err
			}
			v = g.Dense()
			if dim > 0 {
				h = mat.DenseCopyOf(g.F)
			}
		} else {
			n := cfg.AtomSize
			v = mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					v.Set(i, j, rng.Float64())
				}
			}
			if dim > 0 {
				// Features of random observed nodes keep H on the data's scale.
				h = mat.NewDense(n, dim, nil)
				for i := 0; i < n; i++ {
					g, err := src.Graph(rng.IntN(src.Len()))
					if err != nil {
						return nil, err
					}
					h.SetRow(i, g.F.RawRowView(rng.IntN(g.N())))
				}
			}
		}
		n, _ := v.Dims()
		m.V = append(m.V, v)
		if dim > 0 {
			m.H = append(m.H, h)
		}
		m.AtomMu = append(m.AtomMu, graphs.UniformMu(n))
	}
	m.Z = mat.NewDense(src.Len(), cfg.Atoms, nil)
	initEmbeddings(m.Z, cfg, rng)
	return m, nil
}

func initRNG(cfg Config) *rand.Rand { return rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)) }

// warmPicks draws the graphs whose structures start the atoms (none with Config.AtomSize).
func warmPicks(cfg Config, graphs int, rng *rand.Rand) []int {
	if cfg.AtomSize != 0 {
		return nil
	}
	var picks []int
	perm := rng.Perm(graphs)
	for k := 0; k < cfg.Atoms; k++ {
		if k < len(perm) {
			picks = append(picks, perm[k])
		} else {
			picks = append(picks, rng.IntN(graphs))
		}
	}
	return picks
}

// AtomSizes returns the number of nodes of each atom NewModel would make for the graphs
// of src, without making them: Config.AtomSize, or the sizes of the graphs the warm start draws
// (it reads those K graphs). It lets a caller check the memory of a model before allocating it
// (graphs.Slice adapts a slice of graphs).
func AtomSizes(src graphs.Source, cfg Config) ([]int, error) {
	if cfg.Atoms <= 0 || src.Len() == 0 {
		return nil, nil
	}
	sizes := make([]int, cfg.Atoms)
	picks := warmPicks(cfg, src.Len(), initRNG(cfg))
	for k := range sizes {
		if picks == nil {
			sizes[k] = cfg.AtomSize
			continue
		}
		g, err := src.Graph(picks[k])
		if err != nil {
			return nil, err
		}
		sizes[k] = g.N()
	}
	return sizes, nil
}

// initEmbeddings fills z with N(0, ZInitStd²) entries.
func initEmbeddings(z *mat.Dense, cfg Config, rng *rand.Rand) {
	r, c := z.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			z.Set(i, j, cfg.ZInitStd*rng.NormFloat64())
		}
	}
}

// Fingerprint identifies a dataset by its graphs' structures, distributions and features, so a
// model or checkpoint is never resumed or applied on other data by mistake (graphs.Fingerprint).
func Fingerprint(data []*graphs.Graph) string { return graphs.Fingerprint(data) }
