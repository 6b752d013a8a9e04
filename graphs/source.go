package graphs

import "fmt"

// Source gives graphs by position, so that a corpus need not be held in memory: a trainer asks
// for the graphs of one mini-batch at a time. Implementations must be safe for concurrent
// calls of Graph and return the same graph for the same position every time.
type Source interface {
	// Len is the number of graphs.
	Len() int
	// Graph returns graph i, 0 ≤ i < Len().
	Graph(i int) (*Graph, error)
}

// Slice is a Source of graphs held in memory.
type Slice []*Graph

// Len is the number of graphs.
func (s Slice) Len() int { return len(s) }

// Graph returns s[i].
func (s Slice) Graph(i int) (*Graph, error) {
	if i < 0 || i >= len(s) {
		return nil, fmt.Errorf("graph %d out of range [0, %d)", i, len(s))
	}
	return s[i], nil
}
