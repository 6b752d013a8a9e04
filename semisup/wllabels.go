package semisup

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// wlVocabularySize bounds the one-hot columns of each Weisfeiler-Lehman iteration
// (TemplateConfig.WLLabels): the most common codes keep a column, the rare ones (on NCI1
// thousands after two iterations, most in a single graph) share the zero row, so that the
// templates' features and their gradients stay a few hundred wide.
const wlVocabularySize = 128

// wlCodes returns the Weisfeiler-Lehman codes (graphs.WLCodes) of g's nodes for iterations
// 0..h, starting from x, the node features as the model reads them (n×d, row-major: labels,
// attributes or one-hot degrees); with edges, refined by the edges' labels too
// (graphs.WLCodesWithEdges, an error where g has none).
func wlCodes(g *graphs.Graph, x []float64, d, h int, edges bool) (*mat.Dense, error) {
	cp := *g
	cp.F = mat.NewDense(g.N(), d, x)
	code := graphs.WLCodes
	if edges {
		code = graphs.WLCodesWithEdges
	}
	codes, err := code(&cp, h)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	return codes, nil
}

// categoricalWLCodes returns each graph's node features as the model reads them (contiguous,
// n×d, whatever F's stride) and their Weisfeiler-Lehman codes for iterations 0..h (wlCodes).
// Where a graph's features are not one-hot rows (attributes) it stops and returns that graph
// as notOneHot, rows and codes nil: codes of continuous rows tell every node apart.
func categoricalWLCodes(data []*graphs.Graph, d, h int, edges bool) (rows [][]float64, codes []*mat.Dense, notOneHot *graphs.Graph, err error) {
	rows, codes = make([][]float64, len(data)), make([]*mat.Dense, len(data))
	for i, g := range data {
		rows[i] = inputFeatures(g)
		if !oneHot(rows[i], d) {
			return nil, nil, g, nil
		}
		if codes[i], err = wlCodes(g, rows[i], d, h, edges); err != nil {
			return nil, nil, nil, err
		}
	}
	return rows, codes, nil, nil
}

// wlVocabulary returns, for each iteration 1..h of codes (one matrix per graph, as wlCodes
// gives), the codes found in at least two graphs, most common first (by graphs, then by code
// for a deterministic order), at most wlVocabularySize. A code of a single graph cannot tell
// one graph from another.
func wlVocabulary(codes []*mat.Dense, h int) [][]uint64 {
	vocab := make([][]uint64, h)
	for t := 1; t <= h; t++ {
		graphsWith := map[uint64]int{}
		seen := map[uint64]bool{}
		for _, c := range codes {
			clear(seen)
			n, _ := c.Dims()
			for v := range n {
				code := uint64(c.At(v, t))
				if !seen[code] {
					seen[code] = true
					graphsWith[code]++
				}
			}
		}
		var common []uint64
		for code, k := range graphsWith {
			if k >= 2 {
				common = append(common, code)
			}
		}
		slices.SortFunc(common, func(a, b uint64) int {
			if c := cmp.Compare(graphsWith[b], graphsWith[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		vocab[t-1] = common[:min(len(common), wlVocabularySize)]
	}
	return vocab
}

// wlIndex maps each iteration's vocabulary codes to their columns (vocab[t−1][p] → p), once
// per model rather than per graph.
func wlIndex(vocab [][]uint64) []map[uint64]int32 {
	out := make([]map[uint64]int32, len(vocab))
	for t, v := range vocab {
		out[t] = make(map[uint64]int32, len(v))
		for p, code := range v {
			out[t][code] = int32(p)
		}
	}
	return out
}

// wlPositions returns each node's column in each iteration's block (n × len(index), row-major):
// the position of its code after t iterations in the vocabulary (index[t−1], wlIndex); for a
// code outside it, with rare > 0, one of the rare columns after the vocabulary's (rareColumn),
// else −1.
func wlPositions(codes *mat.Dense, index []map[uint64]int32, rare int) []int32 {
	n, _ := codes.Dims()
	out := make([]int32, n*len(index))
	for t, columns := range index {
		for i := range n {
			code := uint64(codes.At(i, t+1))
			p, ok := columns[code]
			switch {
			case ok:
			case rare > 0:
				p = int32(len(columns) + rareColumn(code, rare))
			default:
				p = -1
			}
			out[i*len(index)+t] = p
		}
	}
	return out
}

// rareColumn is a code's column among rare: splitmix64's finalizer of the code, so that
// neighbouring codes spread evenly.
func rareColumn(code uint64, rare int) int {
	z := code + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int((z ^ (z >> 31)) % uint64(rare))
}

// appendWLRows appends to dst the rows of x (n×d, row-major) each followed by one one-hot block
// per iteration of vocab and its rare columns (column p of block t set where pos says so: the
// node's code after t iterations is vocab[t−1][p], or p ≥ len(vocab[t−1]) a rare code's
// column; −1 leaves the block zero), every block scaled by 1/√(h+1): a squared distance
// between two nodes is then the mean over the blocks, as FGW's Hamming distance between WL
// labels is the mean over the iterations, and the feature weight keeps its meaning.
func appendWLRows(dst, x []float64, n, d int, pos []int32, vocab [][]uint64, rare int) []float64 {
	width, h := d+wlWidth(vocab, rare), len(vocab)
	scale := 1 / math.Sqrt(float64(h+1))
	start := len(dst)
	dst = slices.Grow(dst, n*width)[:start+n*width]
	clear(dst[start:])
	for i := range n {
		row := dst[start+i*width : start+(i+1)*width]
		for c, y := range x[i*d : (i+1)*d] {
			row[c] = scale * y
		}
		off := d
		for t := range vocab {
			if p := pos[i*h+t]; p >= 0 {
				row[off+int(p)] = scale
			}
			off += len(vocab[t]) + rare
		}
	}
	return dst
}

// oneHot reports whether every row of x (d wide, row-major) is one-hot: categorical features.
func oneHot(x []float64, d int) bool {
	for i := 0; i+d <= len(x); i += d {
		ones := 0
		for _, v := range x[i : i+d] {
			switch v {
			case 1:
				ones++
			case 0:
			default:
				return false
			}
		}
		if ones != 1 {
			return false
		}
	}
	return true
}

// wlWidth is the number of columns the WL labels add: the vocabulary's and, per iteration,
// the rare codes'.
func wlWidth(vocab [][]uint64, rare int) int {
	return vocabularyWidth(vocab) + len(vocab)*rare
}

// vocabularyWidth is the number of one-hot columns the vocabulary adds.
func vocabularyWidth(vocab [][]uint64) int {
	w := 0
	for _, v := range vocab {
		w += len(v)
	}
	return w
}

// validVocabulary checks a vocabulary read from a file: none (features that are not one-hot),
// or h iterations of distinct codes of at most 52 bits (graphs.WLCodes'), at most
// wlVocabularySize each.
func validVocabulary(vocab [][]uint64, h int) error {
	if vocab == nil {
		return nil
	}
	if len(vocab) != h {
		return fmt.Errorf("%d Weisfeiler-Lehman vocabularies for %d iterations", len(vocab), h)
	}
	for t, v := range vocab {
		if len(v) > wlVocabularySize {
			return fmt.Errorf("Weisfeiler-Lehman iteration %d: %d codes (at most %d)", t+1, len(v), wlVocabularySize)
		}
		seen := make(map[uint64]bool, len(v))
		for _, code := range v {
			if code >= 1<<52 || seen[code] {
				return fmt.Errorf("Weisfeiler-Lehman iteration %d: code %d repeated or wider than 52 bits", t+1, code)
			}
			seen[code] = true
		}
	}
	return nil
}

// ReadsEdgeLabels reports whether a model configured by c reads data's edge labels:
// WLEdgeLabels is set and every graph has them (a model drops the option otherwise).
func (c TemplateConfig) ReadsEdgeLabels(data []*graphs.Graph) bool {
	return c.WLEdgeLabels && allHaveEdgeLabels(data)
}

// allHaveEdgeLabels reports whether every graph of data has edge labels.
func allHaveEdgeLabels(data []*graphs.Graph) bool {
	for _, g := range data {
		if g.EdgeLabels == nil {
			return false
		}
	}
	return len(data) > 0
}
