package training

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// checkData verifies that the graphs can be factorised together: at least one graph, and all
// with node features of one dimension or all without. It returns that dimension.
func checkData(data []*graphs.Graph) (int, error) {
	if len(data) == 0 {
		return 0, fmt.Errorf("no graphs to learn from")
	}
	dim := data[0].Dim()
	for _, g := range data {
		if g == nil {
			return 0, fmt.Errorf("nil graph in the data")
		}
		if g.N() == 0 {
			return 0, fmt.Errorf("graph %q has no nodes", g.Name)
		}
		if g.Dim() != dim {
			return 0, fmt.Errorf("graph %q has %d-dimensional features, graph %q has %d", g.Name, g.Dim(), data[0].Name, dim)
		}
	}
	return dim, nil
}

// NewModel initialises a model for the data: warm-started atoms (K random observed graphs,
// drawn without replacement while there are enough) or random atoms of Config.AtomSize nodes,
// uniform atom distributions, and small random embeddings.
func NewModel(data []*graphs.Graph, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	dim, err := checkData(data)
	if err != nil {
		return nil, err
	}
	rng := initRNG(cfg)
	m := &Model{Config: cfg, Fingerprint: Fingerprint(data)}
	picks := warmPicks(cfg, len(data), rng)
	for k := 0; k < cfg.Atoms; k++ {
		var v, h *mat.Dense
		if cfg.AtomSize == 0 {
			g := data[picks[k]]
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
					g := data[rng.IntN(len(data))]
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
	m.Z = mat.NewDense(len(data), cfg.Atoms, nil)
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

// AtomSizes returns the number of nodes of each atom NewModel would make for data, without
// making them: Config.AtomSize, or the sizes of the graphs the warm start draws. It lets a
// caller check the memory of a model before allocating it.
func AtomSizes(data []*graphs.Graph, cfg Config) []int {
	if cfg.Atoms <= 0 || len(data) == 0 {
		return nil
	}
	sizes := make([]int, cfg.Atoms)
	picks := warmPicks(cfg, len(data), initRNG(cfg))
	for k := range sizes {
		if picks == nil {
			sizes[k] = cfg.AtomSize
		} else {
			sizes[k] = data[picks[k]].N()
		}
	}
	return sizes
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
// model or checkpoint is never resumed or applied on other data by mistake.
func Fingerprint(data []*graphs.Graph) string {
	h := sha256.New()
	var buf [8]byte
	put := func(v float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		h.Write(buf[:])
	}
	var row []byte // one adjacency row, dense, as put would write it
	for _, g := range data {
		n := g.N()
		put(float64(n))
		put(float64(g.Dim()))
		row = slices.Grow(row[:0], 8*n)[:8*n]
		for i := 0; i < n; i++ {
			clear(row)
			cols, vals := g.A.Row(i)
			for p, j := range cols {
				binary.LittleEndian.PutUint64(row[8*j:], math.Float64bits(vals[p]))
			}
			h.Write(row)
		}
		for _, v := range g.Mu {
			put(v)
		}
		if g.F != nil {
			for i := 0; i < g.N(); i++ {
				for _, v := range g.F.RawRowView(i) {
					put(v)
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
