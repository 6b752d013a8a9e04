package training

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/adamstate"
	"github.com/gwf-graphs/gwf/layers"
)

// Model is a GWF model (eq. gwf): K atoms U_k = ReLU(V_k) with node distributions and, for
// FGW, node features H_k; and one embedding z_i per training graph, whose atom weights are
// λ_i = softmax(z_i).
type Model struct {
	Config Config
	// V are the atoms' unconstrained parameters (N_k×N_k).
	V []*mat.Dense
	// H are the atoms' node features (N_k×D), nil when the data has no features.
	H []*mat.Dense
	// AtomMu are the atoms' node distributions (uniform, Algorithm 4 line 2).
	AtomMu [][]float64
	// Z holds one embedding per training graph (I×K).
	Z *mat.Dense
	// Fingerprint identifies the training data (see Fingerprint).
	Fingerprint string
	// History has one entry per completed epoch.
	History []EpochStats
	// Partial, when training stopped mid-epoch, says how far the next epoch got.
	Partial *PartialEpoch
	// Features, when known, is how the node features of the training data were made (kind,
	// one-hot node-label values, standardization): graphs embedded later must be encoded the
	// same way (collection.Spec.Encoding). The trainer does not read it; whoever reads the
	// data sets it (gwf fit does).
	Features *graphs.FeatureEncoding
	// Optimizer is the Adam state where training stopped — after the last epoch of History,
	// plus Partial's graphs (nil before training, or for files written without it): with it,
	// Fit resumes exactly.
	Optimizer *OptimizerState
}

// PartialEpoch is an epoch stopped at a batch boundary: its first Done graphs (in the epoch's
// seeded order) are trained, with the loss sum and seconds so far.
type PartialEpoch struct {
	Epoch   int     `json:"epoch"`
	Done    int     `json:"done"`
	LossSum float64 `json:"loss_sum"`
	Seconds float64 `json:"seconds"`
	// TermSums are the extra terms' sums so far (Options.Terms).
	TermSums []float64 `json:"term_sums,omitempty"`
}

// OptimizerState is the state of the Adam solvers after epoch Epoch and Done graphs of the
// next: one solver for the atoms (V_k then H_k), one per embedding z_i and one per extra term
// of the trainer (Options.Terms), in order.
type OptimizerState struct {
	Epoch int         `json:"epoch"`
	Done  int         `json:"done,omitempty"`
	Atoms AdamState   `json:"atoms"`
	Z     []AdamState `json:"z"`
	Terms []AdamState `json:"terms,omitempty"`
	// Encoder is the encoder's solver (training with Options.Encoder).
	Encoder *AdamState `json:"encoder,omitempty"`
}

// AdamState is a snapshot of one Adam solver: its step count and, per parameter in the order
// the solver is stepped with, the first and second moment estimates.
type AdamState = adamstate.State

// partialDone is the number of graphs of the next epoch already trained.
func (m *Model) partialDone() int {
	if p := m.Partial; p != nil && p.Epoch == len(m.History)+1 {
		return p.Done
	}
	return 0
}

// EpochStats records one epoch of training.
type EpochStats struct {
	Epoch   int     `json:"epoch"`
	Loss    float64 `json:"loss"` // mean GWF loss over the epoch's graphs
	Seconds float64 `json:"seconds"`
	// Terms are the sums over the epoch's batches of each extra term (Options.Terms).
	Terms []float64 `json:"terms,omitempty"`
}

// K is the number of atoms.
func (m *Model) K() int { return len(m.V) }

// Dim is the node-feature dimension (0 without features).
func (m *Model) Dim() int {
	if len(m.H) == 0 || m.H[0] == nil {
		return 0
	}
	_, d := m.H[0].Dims()
	return d
}

// Atoms returns the atoms as the layers package sees them (U = ReLU(V)), freshly computed.
func (m *Model) Atoms() []layers.Atom {
	atoms := make([]layers.Atom, m.K())
	for k, v := range m.V {
		r, _ := v.Dims()
		u := mat.NewDense(r, r, nil)
		layers.ReLU(u, v)
		atoms[k] = layers.Atom{U: u, Mu: m.AtomMu[k]}
		if m.Dim() > 0 {
			atoms[k].H = m.H[k]
		}
	}
	return atoms
}

// Lambda returns softmax of every row of z: the atom weights of each graph.
func Lambda(z *mat.Dense) *mat.Dense {
	r, c := z.Dims()
	out := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		layers.Softmax(out.RawRowView(i), z.RawRowView(i))
	}
	return out
}

// Embedding names what is clustered or exported: the raw z_i or the atom weights softmax(z_i).
type Embedding string

const (
	EmbeddingZ      Embedding = "z"
	EmbeddingLambda Embedding = "lambda"
)

// ParseEmbedding checks an embedding name.
func ParseEmbedding(s string) (Embedding, error) {
	switch Embedding(s) {
	case EmbeddingZ, EmbeddingLambda:
		return Embedding(s), nil
	}
	return "", fmt.Errorf("unknown embedding %q (want z or lambda)", s)
}

// Rows returns the chosen embedding of z as rows, for clustering or export.
func (e Embedding) Rows(z *mat.Dense) [][]float64 {
	src := z
	if e == EmbeddingLambda {
		src = Lambda(z)
	}
	r, _ := src.Dims()
	rows := make([][]float64, r)
	for i := range rows {
		rows[i] = append([]float64(nil), src.RawRowView(i)...)
	}
	return rows
}
