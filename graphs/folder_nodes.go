package graphs

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/internal/linelimit"
)

// readNodeCounts reads a folder's nodes.csv: "file,nodes" rows (an optional header
// "file,nodes" first), each naming an edge-list file of the folder (one of files) and its
// node count, within lim.
func readNodeCounts(p string, files []string, lim Limits) (map[string]int, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(linelimit.New(f, 1<<20)) // "file,nodes": a longer line is no row of it
	r.FieldsPerRecord = 2
	r.TrimLeadingSpace = true
	r.Comment = '#'
	counts := map[string]int{}
	for row := 1; ; row++ {
		rec, err := r.Read()
		if err == io.EOF {
			return counts, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w (want rows \"file,nodes\")", p, err)
		}
		file, count := strings.TrimSpace(strings.TrimPrefix(rec[0], "\ufeff")), strings.TrimSpace(rec[1])
		if row == 1 && strings.EqualFold(count, "nodes") {
			continue // header
		}
		line, _ := r.FieldPos(0)
		switch n, err := strconv.Atoi(count); {
		case !slices.Contains(files, file):
			return nil, fmt.Errorf("%s:%d: %q is not a graph file of the folder", p, line, file)
		case folderFormat(file) != "edges":
			return nil, fmt.Errorf("%s:%d: %q is not an edge list (its file lists its nodes)", p, line, file)
		case counts[file] != 0:
			return nil, fmt.Errorf("%s:%d: %q is given twice", p, line, file)
		case err != nil || n < 1:
			return nil, fmt.Errorf("%s:%d: node count %q of %q is not a positive integer", p, line, count, file)
		case n > lim.MaxNodes:
			return nil, fmt.Errorf("%s:%d: %d nodes for %q, over the limit of %d (Limits.MaxNodes, --max-nodes)", p, line, n, file, lim.MaxNodes)
		default:
			counts[file] = n
		}
	}
}
