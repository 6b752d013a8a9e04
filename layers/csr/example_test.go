package csr_test

import (
	"fmt"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// A path 0 – 1 – 2 as a sparse matrix: entries are assignments, so a repeated edge is stored
// once, and a later zero removes one.
func ExampleBuild() {
	m, err := csr.Build(3, []csr.Entry{
		{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1},
		{Row: 1, Col: 2, Val: 1}, {Row: 2, Col: 1, Val: 1},
		{Row: 0, Col: 1, Val: 1},                           // repeated
		{Row: 2, Col: 2, Val: 5}, {Row: 2, Col: 2, Val: 0}, // set, then removed
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cols, vals := m.Row(1)
	fmt.Println(m.NNZ(), "entries; row 1:", cols, vals, "symmetric:", m.Symmetric())
	fmt.Println(m.Dense().RawMatrix().Data)
	// Output:
	// 4 entries; row 1: [0 2] [1 1] symmetric: true
	// [0 1 0 1 0 1 0 1 0]
}
