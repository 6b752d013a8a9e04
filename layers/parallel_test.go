package layers

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestRunBatch: every item runs once, on a state of its own worker; with one worker the items
// run largest first, ties in index order.
func TestRunBatch(t *testing.T) {
	sizes := []int{3, 9, 1, 9, 4, 7}
	var states []*ForwardState
	var mu sync.Mutex
	var seen []int
	RunBatch(&states, 1, len(sizes), func(i int) int { return sizes[i] }, func(_ *ForwardState, i int) {
		mu.Lock()
		seen = append(seen, i)
		mu.Unlock()
	})
	if want := []int{1, 3, 5, 4, 0, 2}; !slices.Equal(seen, want) {
		t.Errorf("order %v, want %v", seen, want)
	}
	counts := make([]int, 100)
	RunBatch(&states, 3, len(counts), func(i int) int { return i % 7 }, func(st *ForwardState, i int) {
		if st == nil {
			t.Error("nil state")
		}
		mu.Lock()
		counts[i]++
		mu.Unlock()
	})
	for i, c := range counts {
		if c != 1 {
			t.Fatalf("item %d ran %d times", i, c)
		}
	}
	if len(states) != 3 {
		t.Errorf("%d states for 3 workers", len(states))
	}
}

// TestRunBatchMemory: the items running at once never hold more than the budget between them
// unless one runs alone, smaller items fill the room a large one leaves, and a worker lets its
// buffers go after an item over releaseAbove only.
func TestRunBatchMemory(t *testing.T) {
	sizes := []int{100, 10, 100, 10, 10, 100, 10, 10}
	budget := forwardBytes(100) + 2*forwardBytes(10) // one large and two small at most
	var mu sync.Mutex
	var inFlight, peak int64
	running := 0
	var states []*ForwardState
	runBatch(&states, 4, len(sizes), func(i int) int { return sizes[i] }, func(_ *ForwardState, i int) {
		b := forwardBytes(sizes[i])
		mu.Lock()
		inFlight += b
		running++
		if running > 1 && inFlight > budget {
			t.Errorf("%d items hold %d bytes, over the budget of %d", running, inFlight, budget)
		}
		peak = max(peak, inFlight)
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		inFlight -= b
		running--
		mu.Unlock()
	}, budget)
	if peak <= forwardBytes(100) {
		t.Errorf("peak %d: the small items never ran beside a large one", peak)
	}

	for _, tc := range []struct {
		sizes []int
		kept  bool
	}{{[]int{10, 10}, true}, {[]int{1500, 10}, false}} {
		var states []*ForwardState
		var seen []int
		RunBatch(&states, 1, 2, func(i int) int { return tc.sizes[i] }, func(st *ForwardState, i int) {
			seen = append(seen, st.n)
			st.n = 42
		})
		if kept := seen[1] == 42; kept != tc.kept {
			t.Errorf("sizes %v: the second item saw n = %d (buffers kept: %v, want %v)", tc.sizes, seen[1], kept, tc.kept)
		}
	}
}
