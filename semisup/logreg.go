package semisup

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/gwf-graphs/gwf/internal/subset"
)

// LogReg is multinomial logistic regression on standardized inputs: class scores
// ((x − Mean)/Scale)·W + B. gonum has no classifier, so the model is written here and
// fitted with gonum/optimize (L-BFGS).
type LogReg struct {
	Mean, Scale []float64
	W           *mat.Dense // inputs × classes
	B           []float64
}

// FitLogReg minimises the mean cross-entropy of the rows of x with labels y (classes 0..k−1)
// plus ‖W‖²/(2·c·n) — scikit-learn's C convention, divided by n — over W and B (the
// intercepts are not penalised). Inputs are standardized with the rows' own mean and standard
// deviation (a constant column is left centred).
func FitLogReg(x *mat.Dense, y []int, classes int, c float64) (*LogReg, error) {
	n, d := x.Dims()
	if n == 0 || len(y) != n {
		return nil, fmt.Errorf("logistic regression: %d rows and %d labels", n, len(y))
	}
	if classes < 2 || !(c > 0) || math.IsInf(c, 0) {
		return nil, fmt.Errorf("logistic regression: %d classes and C = %v (need ≥ 2 and a finite C > 0)", classes, c)
	}
	for i, l := range y {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("logistic regression: label %d of row %d is not a class of 0..%d", l, i, classes-1)
		}
	}
	lr := &LogReg{Mean: make([]float64, d), Scale: make([]float64, d)}
	for j := 0; j < d; j++ {
		col := mat.Col(nil, j, x)
		var s, ss float64
		for _, v := range col {
			s += v
		}
		lr.Mean[j] = s / float64(n)
		for _, v := range col {
			ss += (v - lr.Mean[j]) * (v - lr.Mean[j])
		}
		lr.Scale[j] = math.Sqrt(ss / float64(n))
		if !(lr.Scale[j] > 1e-12) {
			lr.Scale[j] = 1
		}
	}
	xs := lr.standardize(x)
	k := classes
	problem := logRegProblem(xs, y, k, 1/(c*float64(n)))
	res, err := optimize.Minimize(problem, make([]float64, d*k+k), &optimize.Settings{GradientThreshold: 1e-8, MajorIterations: 1000}, &optimize.LBFGS{})
	if res == nil || !finite(res.X) {
		return nil, fmt.Errorf("logistic regression (C = %g): %v", c, err)
	}
	// A line search that cannot improve further near the optimum is not a failure: res.X is
	// the best point found.
	lr.W, lr.B = mat.NewDense(d, k, append([]float64(nil), res.X[:d*k]...)), append([]float64(nil), res.X[d*k:]...)
	return lr, nil
}

// logRegProblem is the objective of FitLogReg on standardized inputs xs and its gradient, over
// the parameters W (d×k, row-major) then B (k).
func logRegProblem(xs *mat.Dense, y []int, k int, l2 float64) optimize.Problem {
	n, d := xs.Dims()
	unpack := func(p []float64) (*mat.Dense, []float64) { return mat.NewDense(d, k, p[:d*k]), p[d*k:] }
	logits := func(p []float64) *mat.Dense {
		w, b := unpack(p)
		var s mat.Dense
		s.Mul(xs, w)
		for i := 0; i < n; i++ {
			row := s.RawRowView(i)
			for j := range row {
				row[j] += b[j]
			}
		}
		return &s
	}
	return optimize.Problem{
		Func: func(p []float64) float64 {
			pr := Probabilities(logits(p))
			var loss float64
			for i, l := range y {
				loss -= math.Log(max(pr.At(i, l), 1e-300))
			}
			var sq float64
			for _, v := range p[:d*k] {
				sq += v * v
			}
			return loss/float64(n) + l2*sq/2
		},
		Grad: func(grad, p []float64) {
			pr := Probabilities(logits(p))
			for i, l := range y {
				pr.Set(i, l, pr.At(i, l)-1)
			}
			pr.Scale(1/float64(n), pr)
			gw, gb := unpack(grad)
			gw.Mul(xs.T(), pr)
			w, _ := unpack(p)
			gw.Add(gw, scaled(l2, w))
			for j := range gb {
				gb[j] = mat.Sum(pr.ColView(j))
			}
		},
	}
}

func scaled(a float64, m *mat.Dense) *mat.Dense {
	var s mat.Dense
	s.Scale(a, m)
	return &s
}

func (lr *LogReg) standardize(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			out.Set(i, j, (x.At(i, j)-lr.Mean[j])/lr.Scale[j])
		}
	}
	return out
}

// Logits are the class scores of the rows of x.
func (lr *LogReg) Logits(x *mat.Dense) *mat.Dense {
	var s mat.Dense
	s.Mul(lr.standardize(x), lr.W)
	r, _ := s.Dims()
	for i := 0; i < r; i++ {
		row := s.RawRowView(i)
		for j := range row {
			row[j] += lr.B[j]
		}
	}
	return &s
}

// Predict is the most probable class of each row of x.
func (lr *LogReg) Predict(x *mat.Dense) []int {
	lg := lr.Logits(x)
	r, _ := lg.Dims()
	out := make([]int, r)
	for i := range out {
		out[i] = floats.MaxIdx(lg.RawRowView(i))
	}
	return out
}

// DefaultCGrid returns the values of C to try when none are given (a new slice each call).
func DefaultCGrid() []float64 { return []float64{0.01, 0.1, 1, 10, 100} }

// ChooseC picks the C of grid with the best mean accuracy over a stratified folds-fold
// cross-validation of the rows of x (seeded); ties go to the smaller C (the stronger penalty).
func ChooseC(x *mat.Dense, y []int, classes int, grid []float64, folds int, seed uint64) (float64, error) {
	if len(grid) == 0 {
		return 0, errors.New("logistic regression: empty grid of C")
	}
	if len(grid) == 1 {
		return grid[0], nil
	}
	fold, err := Folds(y, min(folds, len(y)), seed)
	if err != nil {
		return 0, fmt.Errorf("logistic regression: choosing C: %w", err)
	}
	bestC, bestAcc := 0.0, -1.0
	for _, c := range grid {
		var acc float64
		for f := 0; f < folds; f++ {
			var tr, te []int
			for i, g := range fold {
				if g == f {
					te = append(te, i)
				} else {
					tr = append(tr, i)
				}
			}
			if len(te) == 0 || len(tr) == 0 {
				continue
			}
			lr, err := FitLogReg(subset.Rows(x, tr), subset.Ints(y, tr), classes, c)
			if err != nil {
				return 0, err
			}
			pred := lr.Predict(subset.Rows(x, te))
			for r, i := range te {
				if pred[r] == y[i] {
					acc++
				}
			}
		}
		acc /= float64(len(y))
		if acc > bestAcc || (acc == bestAcc && c < bestC) {
			bestC, bestAcc = c, acc
		}
	}
	return bestC, nil
}
