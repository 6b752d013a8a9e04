package fgwsvm

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/training"
)

// TestDistancesKeptInDir: matrices are written to Options.Dir, reused by a later call, and
// computed anew when their file is damaged or holds other data.
func TestDistancesKeptInDir(t *testing.T) {
	data, _ := threeClasses(t, 4, false)
	cands, _ := DefaultCandidates(data)
	dir := t.TempDir()
	var logged []string
	opt := Options{Dir: dir, Observe: func(e training.Event) {
		if e.Message != "" {
			logged = append(logged, e.Message)
		}
	}}
	first, err := Distances(context.Background(), data, cands, opt)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.npy"))
	if len(files) != len(cands) {
		t.Fatalf("%d files for %d candidates", len(files), len(cands))
	}
	again, err := Distances(context.Background(), data, cands, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(logged) != len(cands) {
		t.Fatalf("reused %d matrices, want %d: %v", len(logged), len(cands), logged)
	}
	for i := range cands {
		if !mat.Equal(first[i], again[i]) {
			t.Fatalf("candidate %d: the reused matrix differs", i)
		}
	}
	// A damaged file is computed anew (and rewritten); other graphs never read these files.
	if err := os.WriteFile(files[0], []byte("not a matrix"), 0o644); err != nil {
		t.Fatal(err)
	}
	logged = nil
	if _, err := Distances(context.Background(), data, cands, opt); err != nil {
		t.Fatal(err)
	}
	if len(logged) != len(cands)-1 {
		t.Fatalf("reused %d matrices after one was damaged, want %d", len(logged), len(cands)-1)
	}
	logged = nil
	if _, err := Distances(context.Background(), data[:5], cands, opt); err != nil {
		t.Fatal(err)
	}
	if len(logged) != 0 {
		t.Fatalf("other graphs reused %v", logged)
	}
	if d, ok := loadMatrix(files[0], len(data)+1); ok || d != nil {
		t.Fatal("a matrix of another size was accepted")
	}
}
