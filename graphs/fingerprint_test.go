package graphs

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFingerprint: the same graphs give the same fingerprint, as they always have (the value
// names kept models and matrices), and any change of structure, distribution, features or
// order gives another.
func TestFingerprint(t *testing.T) {
	path, err := New("path", mat.NewDense(3, 3, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tri, err := New("triangle", mat.NewDense(3, 3, []float64{0, 1, 1, 1, 0, 1, 1, 1, 0}), nil, mat.NewDense(3, 1, []float64{1, 2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	const want = "b18458c4090bbf538a0d9480d10c1a10"
	if got := Fingerprint([]*Graph{path, tri}); got != want {
		t.Errorf("fingerprint %s, want %s", got, want)
	}
	var fp Fingerprinter
	fp.Add(path)
	fp.Add(tri)
	seen := map[string]bool{fp.Sum(): true}
	weighted := *path
	weighted.Mu = []float64{0.5, 0.25, 0.25}
	for _, data := range [][]*Graph{{tri, path}, {path}, {&weighted, tri}, nil} {
		fp := Fingerprint(data)
		if seen[fp] {
			t.Errorf("%d graphs: fingerprint %s seen before", len(data), fp)
		}
		seen[fp] = true
	}
	if len(seen) != 5 {
		t.Errorf("Fingerprinter and Fingerprint differ")
	}
}
