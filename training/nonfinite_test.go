package training

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// poison makes graph bad's results non-finite in epoch 1 (its first appearance).
func poison(bad int, what string) func(int, *slot) {
	done := false
	return func(i int, s *slot) {
		if i != bad || done {
			return
		}
		done = true
		switch what {
		case "loss":
			s.loss = math.NaN()
		case "atom":
			s.gU[0].Set(0, 0, math.Inf(1))
		case "lambda":
			s.gLambda[1] = math.NaN()
		}
	}
}

func finiteModel(m *Model) bool {
	ok := finite(m.Z.RawMatrix().Data)
	for _, v := range m.V {
		ok = ok && finite(v.RawMatrix().Data)
	}
	return ok
}

// TestNonFiniteStops: a NaN/Inf loss or gradient stops training with an error naming the
// graph, the epoch and the batch, before any step uses it.
func TestNonFiniteStops(t *testing.T) {
	data := mutag(t, 12)
	for _, what := range []string{"loss", "atom", "lambda"} {
		m, err := NewModel(data, smallConfig())
		if err != nil {
			t.Fatal(err)
		}
		err = Fit(context.Background(), m, data, Options{fault: poison(4, what)})
		if err == nil || !errors.Is(err, errNonFinite) || !strings.Contains(err.Error(), data[4].Name) || !strings.Contains(err.Error(), "epoch 1, batch") {
			t.Errorf("%s: error %v, want one naming graph %q, the epoch and the batch", what, err, data[4].Name)
		}
		if !finiteModel(m) {
			t.Errorf("%s: the model holds non-finite values", what)
		}
	}
}

// TestNonFiniteSkipped: with SkipNonFinite the graph is left out of its batch with a warning,
// its embedding is not stepped, and training completes with a finite model.
func TestNonFiniteSkipped(t *testing.T) {
	data := mutag(t, 12)
	m, err := NewModel(data, smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	z0 := mat.DenseCopyOf(m.Z)
	var warnings []string
	epochs := 0
	err = Fit(context.Background(), m, data, Options{
		SkipNonFinite: true, Warn: func(s string) { warnings = append(warnings, s) }, fault: poison(4, "atom"),
		EpochDone: func(m *Model) error {
			if epochs++; epochs == 1 && !mat.Equal(m.Z.RowView(4), z0.RowView(4)) {
				t.Error("the skipped graph's embedding was stepped")
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], data[4].Name) {
		t.Errorf("warnings %q, want one naming %q", warnings, data[4].Name)
	}
	if !finiteModel(m) || len(m.History) != m.Config.Epochs {
		t.Error("training did not complete with a finite model")
	}
}
