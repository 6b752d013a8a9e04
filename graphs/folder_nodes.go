package graphs

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/internal/linelimit"
)

// readNodeCounts reads a folder's nodes.csv: "file,nodes" rows (an optional header
// "file,nodes" first), each naming an edge-list file of the folder (one of files) and its
// node count, within lim.
func readNodeCounts(p string, files []string, lim Limits) (map[string]int, error) {
	counts := map[string]int{}
	err := readFileTable(p, "nodes", files, func(line int, file, count string) error {
		switch n, err := strconv.Atoi(count); {
		case folderFormat(file) != "edges":
			return fmt.Errorf("%s:%d: %q is not an edge list (its file lists its nodes)", p, line, file)
		case counts[file] != 0:
			return fmt.Errorf("%s:%d: %q is given twice", p, line, file)
		case err != nil || n < 1:
			return fmt.Errorf("%s:%d: node count %q of %q is not a positive integer", p, line, count, file)
		case n > lim.MaxNodes:
			return fmt.Errorf("%s:%d: %d nodes for %q, over the limit of %d (Limits.MaxNodes, --max-nodes)", p, line, n, file, lim.MaxNodes)
		default:
			counts[file] = n
			return nil
		}
	})
	return counts, err
}

// readFileTable calls row for every "file,value" row of the CSV file p (lines starting with #
// are comments; a first row whose value is the column name is a header; a spreadsheet's
// byte-order mark and spaces around cells are dropped), with the row's line, and stops at
// its first error. A row names one of files, by its name or by its name without the
// extension ("g1" for g1.json), as tables made from the graphs' own names do.
func readFileTable(p, column string, files []string, row func(line int, file, value string) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(linelimit.New(f, 1<<20)) // "file,value": a longer line is no row of it
	r.FieldsPerRecord = 2
	r.TrimLeadingSpace = true
	r.Comment = '#'
	for n := 1; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w (want rows \"file,%s\")", p, err, column)
		}
		file, value := strings.TrimSpace(strings.TrimPrefix(rec[0], "\ufeff")), strings.TrimSpace(rec[1])
		if n == 1 && strings.EqualFold(value, column) {
			continue // header
		}
		line, _ := r.FieldPos(0)
		name, err := fileNamed(files, file)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p, line, err)
		}
		if err := row(line, name, value); err != nil {
			return err
		}
	}
}

// fileNamed is the one of files that name names: itself, or the only file whose name without
// its extension is name.
func fileNamed(files []string, name string) (string, error) {
	if slices.Contains(files, name) {
		return name, nil
	}
	var stem []string
	for _, f := range files {
		if strings.TrimSuffix(f, filepath.Ext(f)) == name {
			stem = append(stem, f)
		}
	}
	switch len(stem) {
	case 0:
		return "", fmt.Errorf("%q is not a graph file of the folder", name)
	case 1:
		return stem[0], nil
	}
	return "", fmt.Errorf("%q may be any of %s: write the file's whole name", name, strings.Join(stem, ", "))
}
