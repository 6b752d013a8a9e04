package graphs

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNewValidateErrors(t *testing.T) {
	sq := func(v ...float64) *mat.Dense { return mat.NewDense(2, 2, v) }
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		c    *mat.Dense
		mu   []float64
		f    *mat.Dense
		want string
	}{
		{"nil adjacency", nil, nil, nil, "no adjacency"},
		{"no nodes", &mat.Dense{}, []float64{}, nil, "no nodes"},
		{"not square", mat.NewDense(2, 3, nil), []float64{0.5, 0.5}, nil, "not square"},
		{"negative entry", sq(0, -1, 1, 0), nil, nil, "(0,1) = -1"},
		{"NaN entry", sq(0, 1, nan, 0), nil, nil, "(1,0) = NaN"},
		{"Inf entry", sq(inf, 1, 1, 0), nil, nil, "(0,0) = +Inf"},
		{"mu length", sq(0, 1, 1, 0), []float64{1}, nil, "mu has 1 entries for 2 nodes"},
		{"mu zero", sq(0, 1, 1, 0), []float64{1, 0}, nil, "mu[1] = 0"},
		{"mu negative", sq(0, 1, 1, 0), []float64{1.5, -0.5}, nil, "mu[1] = -0.5"},
		{"mu NaN", sq(0, 1, 1, 0), []float64{nan, 0.5}, nil, "mu[0] = NaN"},
		{"mu Inf", sq(0, 1, 1, 0), []float64{inf, 0.5}, nil, "mu[0] = +Inf"},
		{"mu not on simplex", sq(0, 1, 1, 0), []float64{0.5, 0.4}, nil, "mu sums to 0.9"},
		{"feature rows", sq(0, 1, 1, 0), nil, mat.NewDense(3, 1, nil), "features have 3 rows for 2 nodes"},
		{"feature NaN", sq(0, 1, 1, 0), nil, mat.NewDense(2, 1, []float64{1, nan}), "feature (1,0) = NaN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "g-" + strings.ReplaceAll(tc.name, " ", "-")
			g, err := New(name, tc.c, tc.mu, tc.f)
			if err == nil {
				t.Fatalf("New accepted %v", g)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks the name %q or %q", err, name, tc.want)
			}
			// Validate on a graph built by hand says the same.
			if tc.c != nil {
				g := &Graph{Name: name, C: tc.c, Mu: tc.mu, F: tc.f}
				if tc.mu == nil {
					g.Mu = UniformMu(g.N())
				}
				if err := g.Validate(); err == nil || !errors.Is(err, ErrInvalid) {
					t.Errorf("Validate: %v, want an ErrInvalid", err)
				}
			}
		})
	}
}

func TestNewValid(t *testing.T) {
	g, err := New("ok", mat.NewDense(2, 2, []float64{0, 1, 2, 0}), nil, mat.NewDense(2, 1, []float64{1, 2}))
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 2 || g.Dim() != 1 || g.Mu[0] != 0.5 || g.Mu[1] != 0.5 {
		t.Errorf("got N=%d Dim=%d Mu=%v", g.N(), g.Dim(), g.Mu)
	}
}

func TestDegreeMu(t *testing.T) {
	// Node 3 is isolated, node 2 has only a self-loop; the graph is directed.
	c := mat.NewDense(4, 4, []float64{
		0, 2, 0, 0,
		0, 0, 0, 0,
		0, 0, 1, 0,
		0, 0, 0, 0,
	})
	mu := DegreeMu(c)
	sum := 0.0
	for i, v := range mu {
		if !(v > 0) {
			t.Errorf("mu[%d] = %v, want > 0", i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("sum = %v, want 1", sum)
	}
	// (degree+1) ∝ 3, 3, 3, 1 over 10.
	want := []float64{0.3, 0.3, 0.3, 0.1}
	for i := range want {
		if math.Abs(mu[i]-want[i]) > 1e-12 {
			t.Errorf("mu = %v, want %v", mu, want)
			break
		}
	}
	if _, err := New("deg", c, mu, nil); err != nil {
		t.Errorf("DegreeMu is not a valid mu: %v", err)
	}
}

func TestStandardizeFeatures(t *testing.T) {
	a, err := New("a", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, mat.NewDense(2, 2, []float64{1, 5, 3, 5}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := New("b", mat.NewDense(1, 1, []float64{0}), nil, mat.NewDense(1, 2, []float64{5, 5}))
	if err != nil {
		t.Fatal(err)
	}
	mean, scale := StandardizeFeatures([]*Graph{a, b})
	if mean[0] != 3 || mean[1] != 5 || scale[1] != 1 {
		t.Errorf("mean %v, scale %v", mean, scale)
	}
	var col []float64
	for _, g := range []*Graph{a, b} {
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			col = append(col, g.F.At(i, 0))
			if g.F.At(i, 1) != 0 {
				t.Errorf("constant dimension not centred: %v", g.F.At(i, 1))
			}
		}
	}
	s := 0.0
	for _, v := range col {
		s += v * v
	}
	if math.Abs(s/3-1) > 1e-12 || math.Abs(col[0]+col[1]+col[2]) > 1e-12 {
		t.Errorf("standardised column %v", col)
	}
	if m, s := StandardizeFeatures([]*Graph{{C: mat.NewDense(1, 1, nil)}}); m != nil || s != nil {
		t.Error("graphs without features: want nil")
	}
}
