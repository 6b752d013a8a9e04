package jsonread_test

import (
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/internal/jsonread"
)

func ExampleObject() {
	b, err := jsonread.Object(strings.NewReader(`{"adjacency": [[0]]}`), 1<<20)
	fmt.Println(string(b), err)
	_, err = jsonread.Object(strings.NewReader("\x00\x00\x00"), 1<<20)
	fmt.Println(err)
	// Output:
	// {"adjacency": [[0]]} <nil>
	// not a JSON object: it begins with byte 0x00, not '{'
}
