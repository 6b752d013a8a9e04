package atomicfile_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "result.csv")
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "graph,cluster")
		return err
	})
	b, _ := os.ReadFile(path)
	fmt.Printf("%v %q\n", err, b)
	// Output: <nil> "graph,cluster\n"
}
