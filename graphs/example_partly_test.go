package graphs_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
)

// A folder whose labels.csv labels some graphs only: read with PartialLabelsKept, the others
// are the graphs a classifier is to predict.
func ExampleReadFolder_partlyLabelled() {
	dir, err := os.MkdirTemp("", "partly")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for name, text := range map[string]string{
		"a.txt": "0 1\n1 2\n2 0\n", "b.txt": "0 1\n0 2\n0 3\n", "c.txt": "0 1\n1 2\n",
		"labels.csv": "file,label\na.txt,cycle\nb.txt,star\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	ds, err := graphs.ReadFolder(dir, graphs.FolderOptions{PartialLabels: graphs.PartialLabelsKept})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range ds.Graphs {
		fmt.Printf("%s labelled %v, class %q\n", g.Name, g.HasLabel, ds.ClassName(g))
	}
	fmt.Println(ds.Unlabelled(), "to predict")
	// Output:
	// a.txt labelled true, class "cycle"
	// b.txt labelled true, class "star"
	// c.txt labelled false, class ""
	// 1 to predict
}
