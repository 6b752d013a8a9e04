package layers

import (
	"slices"
	"sync"
	"testing"
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
