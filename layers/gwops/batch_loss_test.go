package gwops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"

	"github.com/gwf-graphs/gwf/layers"
)

// TestBatchLossMatchesExpression: the batch op's loss and the gradients Gorgonia propagates
// from it equal those of the per-graph Gorgonia expressions (Loss.Build, differentiated by
// Gorgonia itself) summed over the batch — with and without features, for any worker count.
func TestBatchLossMatchesExpression(t *testing.T) {
	for _, d := range []int{0, 2} {
		rng := rand.New(rand.NewPCG(41, uint64(d)))
		sizes := []int{5, 3, 6}
		v, h, mus, _ := randomModel(rng, sizes, d)
		obs := []layers.Space{randomSpace(rng, 6, 0.5, 2, true, d), randomSpace(rng, 4, 0.6, 1, false, d), randomSpace(rng, 7, 0.4, 3, true, d)}
		zm := mat.NewDense(len(obs), len(sizes), nil)
		for i := range obs {
			for k := range sizes {
				zm.Set(i, k, rng.NormFloat64())
			}
		}
		fwd := layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}
		run := func(batch bool, workers int) (float64, []*mat.Dense) {
			g := gorgonia.NewGraph()
			atoms := make([]AtomNodes, len(sizes))
			var params gorgonia.Nodes
			for k := range sizes {
				atoms[k] = AtomNodes{V: denseNode(g, fmt.Sprintf("V%d", k), v[k]), Mu: mus[k]}
				params = append(params, atoms[k].V)
				if d > 0 {
					atoms[k].H = denseNode(g, fmt.Sprintf("H%d", k), h[k])
					params = append(params, atoms[k].H)
				}
			}
			zn := denseNode(g, "Z", zm)
			params = append(params, zn)
			var loss *gorgonia.Node
			var err error
			if batch {
				loss, err = BatchLoss{Forward: fwd, Workers: workers}.Build(g, atoms, zn, obs)
			} else {
				for b, o := range obs {
					row := gorgonia.Must(gorgonia.Slice(zn, gorgonia.S(b)))
					l, err := Loss{Forward: fwd}.Build(g, atoms, row, o)
					if err != nil {
						t.Fatal(err)
					}
					if loss == nil {
						loss = l
					} else {
						loss = gorgonia.Must(gorgonia.Add(loss, l))
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			grads, err := gorgonia.Grad(loss, params...)
			if err != nil {
				t.Fatal(err)
			}
			m := gorgonia.NewTapeMachine(g)
			defer m.Close()
			if err := m.RunAll(); err != nil {
				t.Fatal(err)
			}
			var out []*mat.Dense
			for i, gn := range grads {
				s := params[i].Shape()
				out = append(out, mat.NewDense(s[0], s[1], append([]float64(nil), gn.Value().Data().([]float64)...)))
			}
			return loss.Value().Data().(float64), out
		}
		wantLoss, want := run(false, 0)
		for _, workers := range []int{1, 3} {
			gotLoss, got := run(true, workers)
			if math.Abs(gotLoss-wantLoss) > 1e-10*math.Abs(wantLoss) {
				t.Errorf("d=%d workers=%d: loss %v, expression %v", d, workers, gotLoss, wantLoss)
			}
			for i := range want {
				if !mat.EqualApprox(got[i], want[i], 1e-9) {
					t.Errorf("d=%d workers=%d: gradient of parameter %d differs:\n%v\nvs\n%v", d, workers, i, mat.Formatted(got[i]), mat.Formatted(want[i]))
				}
			}
		}
	}
}

func TestBatchLossErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	g := gorgonia.NewGraph()
	v, _, mus, _ := randomModel(rng, []int{4}, 0)
	atoms := []AtomNodes{{V: denseNode(g, "V", v[0]), Mu: mus[0]}}
	obs := []layers.Space{randomSpace(rng, 5, 0.5, 1, false, 0)}
	fwd := layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}
	if _, err := (BatchLoss{Forward: fwd}).Build(g, atoms, denseNode(g, "Z", mat.NewDense(2, 1, nil)), obs); err == nil {
		t.Error("Z with 2 rows for 1 graph: no error")
	}
	if _, err := (BatchLoss{Forward: fwd}).Build(g, nil, denseNode(g, "Z2", mat.NewDense(1, 1, nil)), obs); err == nil {
		t.Error("no atoms: no error")
	}
}

// A batch loss whose context is done fails with the context's error, naming no gradient, and
// builds none of the batch's buffers.
func TestBatchLossStopped(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	sizes := []int{4, 3}
	v, _, mus, _ := randomModel(rng, sizes, 0)
	obs := []layers.Space{randomSpace(rng, 6, 0.5, 1, false, 0), randomSpace(rng, 5, 0.5, 1, false, 0)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := gorgonia.NewGraph()
	atoms := []AtomNodes{{V: denseNode(g, "V0", v[0]), Mu: mus[0]}, {V: denseNode(g, "V1", v[1]), Mu: mus[1]}}
	zn := denseNode(g, "Z", mat.NewDense(2, 2, []float64{0, 1, 1, 0}))
	b, err := BatchLoss{Forward: layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}, Context: ctx}.BuildBatch(g, atoms, zn, obs)
	if err != nil {
		t.Fatal(err)
	}
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err == nil {
		t.Fatal("a stopped batch loss ran")
	}
	if f := b.Failure(); f == nil || !errors.Is(f, context.Canceled) {
		t.Errorf("failure %v, want one wrapping context.Canceled", f)
	}
	if b.op.grads != nil {
		t.Error("a stopped batch kept gradients")
	}
}
