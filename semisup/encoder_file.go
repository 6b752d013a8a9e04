package semisup

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// gnnPayload is a GNN's weights in a model file: per layer, W's rows and b.
type gnnPayload struct {
	W [][][]float64 `json:"w"`
	B [][]float64   `json:"b"`
}

func gnnPayloadOf(e *GNN) *gnnPayload {
	if e == nil {
		return nil
	}
	p := &gnnPayload{B: e.B}
	for _, w := range e.W {
		r, _ := w.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = w.RawRowView(i)
		}
		p.W = append(p.W, rows)
	}
	return p
}

// gnn rebuilds the encoder of a model file, checking every layer's shape against the
// configuration (kind, hidden widths), the input width in and the embedding width k before
// allocating it, and every value for finiteness.
func (p *gnnPayload) gnn(cfg Config, in, k int) (*GNN, error) {
	if !cfg.UsesEncoder() {
		if p != nil {
			return nil, fmt.Errorf("encoder weights for a model without an encoder")
		}
		return nil, nil
	}
	if p == nil {
		return nil, fmt.Errorf("the configuration names encoder %q but the file has no encoder weights", cfg.Encoder)
	}
	hidden := cfg.EncoderHidden
	if len(hidden) == 0 {
		hidden = DefaultEncoderHidden()
	}
	sizes := append(append([]int{in}, hidden...), k)
	if len(p.W) != len(sizes)-1 || len(p.B) != len(p.W) {
		return nil, fmt.Errorf("encoder: %d weight and %d bias layers, want %d", len(p.W), len(p.B), len(sizes)-1)
	}
	e := &GNN{Kind: cfg.Encoder}
	for l, rows := range p.W {
		r, c := sizes[l], sizes[l+1]
		if len(rows) != r || len(p.B[l]) != c {
			return nil, fmt.Errorf("encoder layer %d: %d rows and %d biases, want %d×%d", l, len(rows), len(p.B[l]), r, c)
		}
		for _, row := range rows {
			if len(row) != c {
				return nil, fmt.Errorf("encoder layer %d is not %d wide", l, c)
			}
		}
		w := mat.NewDense(r, c, nil)
		for i, row := range rows {
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("encoder layer %d is not finite", l)
				}
				w.Set(i, j, v)
			}
		}
		for _, v := range p.B[l] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("encoder layer %d's biases are not finite", l)
			}
		}
		e.W = append(e.W, w)
		e.B = append(e.B, p.B[l])
	}
	return e, nil
}
