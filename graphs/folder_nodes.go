package graphs

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	idx := newFileIndex(files)
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
		name, err := idx.named(file)
		if n == 1 && err != nil && isHeader(idx, file, value, column) {
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
func isHeader(idx fileIndex, file, value, column string) bool {
	if folderFormat(file) != "" || len(idx.stems[file]) > 0 {
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

// fileIndex finds the graph a table's row names among a folder's graph names, in constant
// time a row: a collection holds as many graphs as a table has rows.
type fileIndex struct {
	names       map[string]bool
	stems       map[string][]string // name without its extension → names (not a collection's graphs)
	collections map[string]int      // the files whose graphs are named FILE#i: how many
}

func newFileIndex(files []string) fileIndex {
	idx := fileIndex{names: map[string]bool{}, stems: map[string][]string{}, collections: map[string]int{}}
	for _, f := range files {
		idx.names[f] = true
		if strings.Contains(filepath.Ext(f), collectionSep) { // FILE#i, FILE may hold # too
			idx.collections[f[:strings.LastIndex(f, collectionSep)]]++
			continue
		}
		stem := strings.TrimSuffix(f, filepath.Ext(f))
		idx.stems[stem] = append(idx.stems[stem], f)
	}
	return idx
}

// named is the graph that name names: itself, or the only file whose name without its
// extension is name.
func (idx fileIndex) named(name string) (string, error) {
	if idx.names[name] {
		return name, nil
	}
	switch stem := idx.stems[name]; len(stem) {
	case 0:
		if idx.collections[name] > 0 {
			return "", fmt.Errorf("%q holds several graphs: name each of them (%s0, %s1 and so on)", name, name+collectionSep, name+collectionSep)
		}
		if at := strings.LastIndex(name, collectionSep); at > 0 && idx.collections[name[:at]] > 0 {
			file := name[:at]
			return "", fmt.Errorf("%q is no graph of %s, which holds %d: %s0 to %s%d", name, file, idx.collections[file], file+collectionSep, file+collectionSep, idx.collections[file]-1)
		}
		return "", fmt.Errorf("%q is not a graph file of the folder", name)
	case 1:
		return stem[0], nil
	default:
		return "", fmt.Errorf("%q may be any of %s: write the file's whole name", name, strings.Join(stem, ", "))
	}
}
