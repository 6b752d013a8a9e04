package graphs

import (
	"bufio"
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

// readFileTable calls row for every "file,value" row of the CSV file p, with the row's line,
// and stops at its first error. It reads tables as people and programs write them: lines
// starting with # are comments; a first row whose first cell is no graph file's name is a
// header ("file,label", "graph,class", …; isHeader); a first column that is pandas' unnamed index (a header
// ",file,label", from DataFrame.to_csv) is dropped; tabs or semicolons separate the cells
// where the first line has no comma; a spreadsheet's byte-order mark and spaces around cells
// are dropped. A row names one of files, by its name or by its name without the extension
// ("g1" for g1.json), as tables made from the graphs' own names do.
func readFileTable(p, column string, files []string, row func(line int, file, value string) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(linelimit.New(f, 1<<20)) // "file,value": a longer line is no row of it
	r := csv.NewReader(br)
	r.Comma = tableSeparator(br)
	r.FieldsPerRecord = -1 // checked below: two cells, or three with pandas' index
	r.TrimLeadingSpace = true
	r.Comment = '#'
	want := 2
	for n := 1; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w (want rows \"file,%s\")", p, err, column)
		}
		line, _ := r.FieldPos(0)
		rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
		if n == 1 && len(rec) == 3 && strings.TrimSpace(rec[0]) == "" {
			want = 3 // pandas' index column
		}
		if len(rec) != want {
			return fmt.Errorf("%s:%d: %d cells, want rows \"file,%s\"", p, line, len(rec), column)
		}
		rec = rec[want-2:]
		file, value := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		name, err := fileNamed(files, file)
		if n == 1 && err != nil && isHeader(files, file, value, column) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p, line, err)
		}
		if err := row(line, name, value); err != nil {
			return err
		}
	}
}

// isHeader reports whether a first row (file, value) that names no graph file is a header:
// its first cell names no file even without its extension and has no graph file's
// extension, and a node count is not a number. A mistyped first row of data stays an error.
func isHeader(files []string, file, value, column string) bool {
	if folderFormat(file) != "" || slices.ContainsFunc(files, func(f string) bool { return strings.TrimSuffix(f, filepath.Ext(f)) == file }) {
		return false
	}
	_, err := strconv.Atoi(value)
	return column != "nodes" || err != nil
}

// tableSeparator is the cell separator of the table br starts: a comma, or where its first
// line has none, a tab or a semicolon when it has one.
func tableSeparator(br *bufio.Reader) rune {
	head, _ := br.Peek(4096)
	first, _, _ := strings.Cut(string(head), "\n")
	switch {
	case strings.Contains(first, ","):
		return ','
	case strings.Contains(first, "\t"):
		return '\t'
	case strings.Contains(first, ";"):
		return ';'
	}
	return ','
}

// fileNamed is the one of files that name names: itself, or the only file whose name without
// its extension is name.
func fileNamed(files []string, name string) (string, error) {
	if slices.Contains(files, name) {
		return name, nil
	}
	var stem []string
	for _, f := range files {
		// The graphs of a collection (FILE#i: an extension ".g6#3") are named in full.
		if ext := filepath.Ext(f); !strings.Contains(ext, collectionSep) && strings.TrimSuffix(f, ext) == name {
			stem = append(stem, f)
		}
	}
	switch len(stem) {
	case 0:
		for _, f := range files {
			if strings.HasPrefix(f, name+collectionSep) {
				return "", fmt.Errorf("%q holds several graphs: name each of them (%s0, %s1 and so on)", name, name+collectionSep, name+collectionSep)
			}
		}
		return "", fmt.Errorf("%q is not a graph file of the folder", name)
	case 1:
		return stem[0], nil
	}
	return "", fmt.Errorf("%q may be any of %s: write the file's whole name", name, strings.Join(stem, ", "))
}
