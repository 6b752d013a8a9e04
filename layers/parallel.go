package layers

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// RunBatch calls work(state, i) for i = 0..n−1 on up to workers goroutines (0: GOMAXPROCS), each
// with its own ForwardState from *states (grown as needed). Items start largest first, by size:
// the cost of a graph grows like its size squared, so a large graph started last would leave the
// other workers idle at the end of the batch. The caller's results must not depend on which
// state or goroutine ran an item (each item writes its own slot).
func RunBatch(states *[]*ForwardState, workers, n int, size func(int) int, work func(*ForwardState, int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	for len(*states) < workers {
		*states = append(*states, new(ForwardState))
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return size(b) - size(a) })
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(st *ForwardState) {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < n; k = int(next.Add(1)) - 1 {
				work(st, order[k])
			}
		}((*states)[w])
	}
	wg.Wait()
}
