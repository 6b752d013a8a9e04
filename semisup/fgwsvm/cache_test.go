package fgwsvm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/observe"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// TestDistancesKeptInDir: matrices are written to Options.Dir, reused by a later call, and
// computed anew when their file is damaged or holds other data.
func TestDistancesKeptInDir(t *testing.T) {
	data, _ := threeClasses(t, 4, false)
	cands, _ := DefaultCandidates(data)
	dir := t.TempDir()
	var logged []string
	opt := Options{Dir: dir, Observe: func(e observe.Event) {
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

// TestDistancesResumePartial: a partial matrix kept in Options.Dir is resumed where it
// stopped (its entries are used, not recomputed), and removed once the matrix is whole.
func TestDistancesResumePartial(t *testing.T) {
	data, _ := threeClasses(t, 4, false)
	cands, _ := DefaultCandidates(data)
	cands = cands[:1]
	want, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := matrixFile(dir, data, cands[0], DefaultSolver())
	const kept = 20
	planted := make([]float64, kept)
	for k := range planted {
		i, j := pairwise.PairAt(k, len(data))
		planted[k] = want[0].At(i, j) + 1000 // recognisable: a run that recomputes loses it
	}
	Options{}.keepPartial(partialFile(path), planted)
	got, err := Distances(context.Background(), data, cands, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for k := range pairwise.Pairs(len(data)) {
		i, j := pairwise.PairAt(k, len(data))
		w := want[0].At(i, j)
		if k < kept {
			w += 1000
		}
		if g := got[0].At(i, j); g != w {
			t.Fatalf("pair %d (%d, %d): %v, want %v", k, i, j, g, w)
		}
	}
	if _, err := os.Stat(partialFile(path)); !os.IsNotExist(err) {
		t.Fatalf("the partial file is still there: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the whole matrix was not kept: %v", err)
	}
}

// TestDistancesCancelKeepsPartial: a cancelled computation keeps the pairs it finished, and
// the next run resumes them into the matrix an uninterrupted run computes.
func TestDistancesCancelKeepsPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("computes two matrices of 20,000 discrepancies")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var data []*graphs.Graph
	for range 200 { // more pairs than a block of pairwise.Range
		g, err := graphs.StochasticBlockModel([]int{2, 1 + rng.IntN(3)}, [][]float64{{0.9, 0.2}, {0.2, 0.9}}, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	cands := []Candidate{{Structure: "adjacency"}}
	want, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "new") // made by the run, before its first whole matrix
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const stopAt = 6000
	opt := Options{Dir: dir, Observe: func(e observe.Event) {
		if e.Total > 0 && e.Done >= stopAt {
			cancel()
		}
	}}
	if _, err := Distances(ctx, data, cands, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
	path := matrixFile(dir, data, cands[0], DefaultSolver())
	partial := loadPartial(partialFile(path), pairwise.Pairs(len(data)))
	// The pairs finished before the cancel in order: at least the first block of 4,096 of
	// pairwise.Range, which all end before the next block starts.
	if len(partial) < 4096 || len(partial) >= pairwise.Pairs(len(data)) {
		t.Fatalf("kept %d of %d discrepancies, want the %d of the first block at least", len(partial), pairwise.Pairs(len(data)), 4096)
	}
	var resumed bool
	got, err := Distances(context.Background(), data, cands, Options{Dir: dir, Observe: func(e observe.Event) {
		resumed = resumed || strings.HasPrefix(e.Message, "resuming")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !resumed {
		t.Fatal("the second run did not resume the partial matrix")
	}
	if !mat.Equal(got[0], want[0]) {
		t.Fatal("the resumed matrix differs from the uninterrupted one")
	}
}

// TestDistancesKeepsPairsAsTheyFinish: the pairs of a few large graphs (seconds each in real
// data) are kept while the matrix is computed, not in chunks of a thousand pairs: with
// CheckpointEvery tiny the partial file grows pair by pair, a stop keeps every pair finished,
// and the rerun computes only the others.
func TestDistancesKeepsPairsAsTheyFinish(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var data []*graphs.Graph
	for range 6 { // 15 pairs, as in the report: nothing was kept before the 1,024th
		g, err := graphs.BarabasiAlbert(200, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	cands := []Candidate{{Structure: "adjacency"}}
	want, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := partialFile(matrixFile(dir, data, cands[0], DefaultSolver()))
	pairs := pairwise.Pairs(len(data))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var during int // pairs found kept on disk while the run went on
	opt := Options{Dir: dir, Workers: 1, CheckpointEvery: time.Nanosecond, Observe: func(e observe.Event) {
		if e.Total > 0 && e.Done >= 1 && during == 0 {
			if during = len(loadPartial(path, pairs)); during > 0 {
				cancel()
			}
		}
	}}
	if _, err := Distances(ctx, data, cands, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
	kept := loadPartial(path, pairs)
	if during == 0 || len(kept) < during || len(kept) >= pairs {
		t.Fatalf("kept %d pairs while running, %d after the stop, of %d", during, len(kept), pairs)
	}
	for k, v := range kept {
		if i, j := pairwise.PairAt(k, len(data)); v != want[0].At(i, j) {
			t.Fatalf("kept pair %d (%d, %d) = %v, want %v", k, i, j, v, want[0].At(i, j))
		}
	}
	var resumed string
	got, err := Distances(context.Background(), data, cands, Options{Dir: dir, Observe: func(e observe.Event) {
		if strings.HasPrefix(e.Message, "resuming") {
			resumed = e.Message
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resumed, fmt.Sprintf("at %d of %d", len(kept), pairs)) {
		t.Fatalf("the rerun said %q, want it to resume at %d of %d", resumed, len(kept), pairs)
	}
	if !mat.Equal(got[0], want[0]) {
		t.Fatal("the resumed matrix differs from the uninterrupted one")
	}
}

// TestKeepAfter: partial matrices are kept every few seconds, less often when writing them
// takes long, never further apart than CheckpointEvery.
func TestKeepAfter(t *testing.T) {
	for _, tc := range []struct {
		every, took, want time.Duration
	}{
		{0, 0, minKeep},
		{0, time.Millisecond, minKeep},                       // a small file: every few seconds
		{0, time.Second, keepCost * time.Second},             // a large one: 2% of the time
		{0, time.Hour, DefaultCheckpointEvery},               // never less often than that
		{time.Second, time.Millisecond, time.Second},         // nor than asked
		{time.Nanosecond, time.Millisecond, time.Nanosecond}, // tests: at every pair
	} {
		if got := (Options{CheckpointEvery: tc.every}).keepAfter(tc.took); got != tc.want {
			t.Errorf("CheckpointEvery %v, a keep of %v: next after %v, want %v", tc.every, tc.took, got, tc.want)
		}
	}
}
