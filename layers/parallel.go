package layers

import (
	"runtime"
	"slices"
	"sync"
)

// RunBatch calls work(state, i) for i = 0..n−1 on up to workers goroutines (0: GOMAXPROCS), each
// with its own ForwardState from *states (grown as needed). Items start largest first, by size:
// the cost of a graph grows like its size squared, so a large graph started last would leave the
// other workers idle at the end of the batch. The caller's results must not depend on which
// state or goroutine ran an item (each item writes its own slot).
//
// Memory is bounded too: a worker holds about 16·N² float64s for a graph of N nodes (1.8 GB at
// N = 3782), so an item starts only while the items running hold at most 1 GiB with it (or when
// none runs: a graph always runs, alone if need be), the next smaller one that fits taking its
// place; and a worker lets its buffers go after an item of over 256 MiB, so that the largest
// graph of a batch is not held after it is done.
func RunBatch(states *[]*ForwardState, workers, n int, size func(int) int, work func(*ForwardState, int)) {
	runBatch(states, workers, n, size, work, batchMemory)
}

// forwardFloats bounds the number of N×N float64 buffers a ForwardState holds after Run and
// Envelope on a sparse observed graph of N nodes: the barycenter, the final GWD's transport,
// cost, kernel and scratch, the dense copy of the graph, the envelope's products (docs/scale.md
// has the count measured).
const forwardFloats = 16

// batchMemory bounds the working memory of a batch's items running at once; releaseAbove is the
// size of an item after which its worker's buffers are let go.
const (
	batchMemory  = 1 << 30
	releaseAbove = 256 << 20
)

// forwardBytes estimates the working memory of a graph of n nodes.
func forwardBytes(n int) int64 { return 8 * forwardFloats * int64(n) * int64(n) }

func runBatch(states *[]*ForwardState, workers, n int, size func(int) int, work func(*ForwardState, int), budget int64) {
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
	need := make([]int64, n)
	for k, i := range order {
		need[k] = forwardBytes(size(i))
	}
	var (
		mu       sync.Mutex
		freed    = sync.NewCond(&mu)
		started  = make([]bool, n)
		first    int   // the first item in order not started
		inFlight int64 // the estimated bytes of the items running
	)
	// take returns the position in order of the next item this worker may start, or −1 when
	// every item has started. It waits while the items running leave no room.
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		for {
			for first < n && started[first] {
				first++
			}
			if first == n {
				return -1
			}
			for k := first; k < n; k++ {
				if !started[k] && (inFlight == 0 || inFlight+need[k] <= budget) {
					started[k] = true
					inFlight += need[k]
					return k
				}
			}
			freed.Wait()
		}
	}
	done := func(k int) {
		mu.Lock()
		inFlight -= need[k]
		mu.Unlock()
		freed.Broadcast()
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(st *ForwardState) {
			defer wg.Done()
			for k := take(); k >= 0; k = take() {
				work(st, order[k])
				if need[k] > releaseAbove {
					// Let the buffers go and collect them now: left to the pacer, the heap
					// would grow to twice the peak before the next large graph reused them.
					*st = ForwardState{}
					runtime.GC()
				}
				done(k)
			}
		}((*states)[w])
	}
	wg.Wait()
}
