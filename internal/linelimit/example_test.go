package linelimit_test

import (
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/internal/linelimit"
)

func Example() {
	r := csv.NewReader(linelimit.New(strings.NewReader("a,b\n"+strings.Repeat("x", 100)+"\n"), 64))
	for {
		rec, err := r.Read()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec)
	}
	// Output:
	// [a b]
	// line 2: line too long: longer than 64 bytes (not a text file of lines?)
}
