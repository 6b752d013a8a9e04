package tape

import (
	"errors"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// collidingNames are two names whose length-2 float64 input vectors have the same Gorgonia hash
// (found by enumerating "x0", "x1", …; input hashes depend on type, shape and name only).
var collidingNames = [2]string{"x1232789", "x1429192"}

// difference builds a − b for two inputs named as given, a = (1, 2) and b = (5, 7).
func difference(t *testing.T, names [2]string) (*gorgonia.ExprGraph, *gorgonia.Node) {
	t.Helper()
	g := gorgonia.NewGraph()
	a := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName(names[0]),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 2}))))
	b := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName(names[1]),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{5, 7}))))
	d, err := gorgonia.Sub(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return g, d
}

func run(t *testing.T, g *gorgonia.ExprGraph, d *gorgonia.Node) []float64 {
	t.Helper()
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	return d.Value().Data().([]float64)
}

// The reason for the package: Gorgonia computes a − b wrong when a and b collide.
func TestTapeMachineMergesCollidingNodes(t *testing.T) {
	g, d := difference(t, collidingNames)
	ns := g.AllNodes()
	if len(ns) != 3 || ns[0].Hashcode() != ns[1].Hashcode() {
		t.Fatalf("the names no longer collide: %d nodes, hashes %d and %d", len(ns), ns[0].Hashcode(), ns[1].Hashcode())
	}
	got := run(t, g, d)
	t.Logf("a − b with colliding names: %v", got)
	if got[0] == -4 && got[1] == -5 {
		t.Fatalf("a − b = %v is right: Gorgonia no longer merges colliding nodes, the guard may go", got)
	}
	g, d = difference(t, [2]string{"a", "b"})
	if got := run(t, g, d); got[0] != -4 || got[1] != -5 {
		t.Fatalf("a − b = %v, want [-4 -5]", got)
	}
}

func TestCheck(t *testing.T) {
	g, _ := difference(t, collidingNames)
	if err := Check(g); !errors.Is(err, ErrHashCollision) {
		t.Fatalf("Check on colliding nodes: %v, want ErrHashCollision", err)
	}
	g, _ = difference(t, [2]string{"a", "b"})
	if err := Check(g); err != nil {
		t.Fatalf("Check on distinct hashes: %v", err)
	}
}

func TestBuildRebuildsACollision(t *testing.T) {
	calls := 0
	g, d, err := Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
		calls++
		if calls == 1 {
			g, d := difference(t, collidingNames)
			return g, d, nil
		}
		g, d := difference(t, [2]string{"a", "b"})
		return g, d, nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("Build: err %v after %d calls, want success after 2", err, calls)
	}
	if got := run(t, g, d); got[0] != -4 || got[1] != -5 {
		t.Fatalf("a − b = %v, want [-4 -5]", got)
	}
}

func TestBuildGivesUpOnAStructuralCollision(t *testing.T) {
	calls := 0
	g, d, err := Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
		calls++
		g, d := difference(t, collidingNames)
		return g, d, nil
	})
	if !errors.Is(err, ErrHashCollision) || g != nil || d != nil || calls != Attempts {
		t.Fatalf("Build: (%v, %v, %v) after %d calls, want ErrHashCollision after %d", g, d, err, calls, Attempts)
	}
}

func TestBuildReturnsTheBuildError(t *testing.T) {
	want := errors.New("bad input")
	calls := 0
	_, _, err := Build(func() (*gorgonia.ExprGraph, int, error) {
		calls++
		return nil, 0, want
	})
	if !errors.Is(err, want) || calls != 1 {
		t.Fatalf("Build: %v after %d calls, want the build's error after 1", err, calls)
	}
}
