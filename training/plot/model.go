package plot

import (
	"fmt"
	"io"
	"math/rand"

	"github.com/danaugrs/go-tsne/tsne"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

// Loss draws a model's mean loss per epoch.
func Loss(w io.Writer, title string, m *training.Model) error {
	if len(m.History) == 0 {
		return fmt.Errorf("plot: the model has no epochs to draw")
	}
	epochs, loss := make([]float64, len(m.History)), make([]float64, len(m.History))
	for i, h := range m.History {
		epochs[i], loss[i] = float64(h.Epoch), h.Loss
	}
	return Lines(w, title, "epoch", "mean GWF loss", false, []Series{{Name: "loss", X: epochs, Y: loss}})
}

// TSNELayout is the 2-D t-SNE layout of the rows of x (perplexity 30 at most, learning rate
// 200, the given iterations), its random start seeded by seed (see the package doc). x needs at
// least 4 rows.
func TSNELayout(x mat.Matrix, seed uint64, iterations int) (*mat.Dense, error) {
	n, _ := x.Dims()
	if n < 4 || iterations < 1 {
		return nil, fmt.Errorf("plot: t-SNE of %d points with %d iterations: need at least 4 points and 1 iteration", n, iterations)
	}
	//lint:ignore SA1019 go-tsne draws from the global source only; seeding it makes the picture reproducible.
	rand.Seed(int64(seed))
	y := tsne.NewTSNE(2, min(30, float64(n-1)/3), 200, iterations, false).EmbedData(x, nil)
	return mat.DenseCopyOf(y), nil
}

// Classes are the class of every graph of ds and the names of the classes ("class " and the
// label as the data files write it), as TSNE takes them; nil, nil when a graph has no class.
func Classes(ds *graphs.Dataset) (class []int, names []string) {
	class = make([]int, len(ds.Graphs))
	for i, g := range ds.Graphs {
		if !g.HasLabel {
			return nil, nil
		}
		class[i] = g.Label
	}
	names = make([]string, ds.NumClasses())
	for c := range names {
		names[c] = "class " + ds.ClassText(c)
	}
	return class, names
}

// TSNE draws the t-SNE layout of embeddings (one row per graph) coloured by class: class[i]
// indexes classNames (pass nil classNames for one colour and no legend).
func TSNE(w io.Writer, title string, embeddings mat.Matrix, class []int, classNames []string, seed uint64, iterations int) error {
	n, _ := embeddings.Dims()
	if class == nil {
		class = make([]int, n)
	}
	if classNames == nil {
		classNames = []string{""}
	}
	y, err := TSNELayout(embeddings, seed, iterations)
	if err != nil {
		return err
	}
	return Scatter(w, title, mat.Col(nil, 0, y), mat.Col(nil, 1, y), class, classNames)
}

// TopAtoms returns the indices of the n atoms with the largest mean weight over the rows of
// lambda (graphs × atoms), most used first.
func TopAtoms(lambda mat.Matrix, n int) []int {
	rows, k := lambda.Dims()
	mean := make([]float64, k)
	for i := 0; i < rows; i++ {
		for j := 0; j < k; j++ {
			mean[j] += lambda.At(i, j)
		}
	}
	var top []int
	used := make([]bool, k)
	for len(top) < min(n, k) {
		best := -1
		for j := range mean {
			if !used[j] && (best < 0 || mean[j] > mean[best]) {
				best = j
			}
		}
		used[best] = true
		top = append(top, best)
	}
	return top
}

// Atom is atom k's structure U_k = ReLU(V_k).
func Atom(m *training.Model, k int) *mat.Dense {
	var u mat.Dense
	u.CloneFrom(m.V[k])
	layers.ReLU(&u, m.V[k])
	return &u
}

// Atoms draws the n atoms most used by the graphs of z (one embedding per graph under m; m.Z
// for its training data) as heat maps of U = ReLU(V), side by side, most used first.
func Atoms(w io.Writer, m *training.Model, z *mat.Dense, n int) error {
	if n < 1 {
		return fmt.Errorf("plot: %d atoms to draw", n)
	}
	if _, c := z.Dims(); c != m.K() {
		return fmt.Errorf("plot: embeddings of %d values for a model of %d atoms", c, m.K())
	}
	top := TopAtoms(training.Lambda(z), n)
	var plots []*plot.Plot
	for r, k := range top {
		u := Atom(m, k)
		plots = append(plots, heatMap(fmt.Sprintf("#%d: atom %d (%d nodes)", r+1, k, u.RawMatrix().Rows), u))
	}
	return writeTiles(w, plots, min(len(plots), 4), 3*vg.Inch)
}
