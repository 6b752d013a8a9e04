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
// header ("file,label", "graph,class", …; isHeader); a header finds the file and value columns
// by their names (tableColumns) in a table of more columns ("file,label,split") or of the two
// swapped ("label,file"), and a first column that is pandas' unnamed index (a header
// ",file,label", from DataFrame.to_csv) is passed over; tabs or semicolons separate the cells
// where the first line has no comma; a spreadsheet's byte-order mark and spaces around cells
// are dropped. A row names one of files, by its name or by its name without the extension
// ("g1" for g1.json), as tables made from the graphs' own names do, or by a path that ends in
// one of them.
func readFileTable(p, column string, files []string, row func(line int, file, value string) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(linelimit.New(f, 1<<20)) // "file,value": a longer line is no row of it
	r := csv.NewReader(br)
	r.Comma = tableSeparator(br)
	r.FieldsPerRecord = -1 // checked below: as many cells as the header's, or two
	r.TrimLeadingSpace = true
	r.Comment = '#'
	cols := tableColumns{file: 0, value: 1, width: 2}
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
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if n == 1 {
			header, ok, err := headerColumns(idx, rec, column)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", p, line, err)
			}
			if ok {
				cols = header
				continue
			}
		}
		if len(rec) != cols.width {
			if cols.width == 2 {
				return fmt.Errorf("%s:%d: %d cells, want rows \"file,%s\" (or a header that names those columns)", p, line, len(rec), column)
			}
			return fmt.Errorf("%s:%d: %d cells, want %d as in the header", p, line, len(rec), cols.width)
		}
		name, err := idx.named(rec[cols.file])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p, line, err)
		}
		if err := row(line, name, rec[cols.value]); err != nil {
			return err
		}
	}
}

// tableColumns are where a table's rows have the file and the value, and how many cells.
type tableColumns struct{ file, value, width int }

// Column names a header may give the file column, and the value column of each kind of table,
// as written by people, pandas and the graph libraries' exports (lower case).
var (
	fileColumnNames  = []string{"file", "filename", "file_name", "graph", "graph_name", "graph_file", "name", "path", "id", "graph_id"}
	valueColumnNames = map[string][]string{
		"label": {"label", "class", "y", "target", "category", "graph_label", "labels", "classes"},
		"nodes": {"nodes", "n", "num_nodes", "n_nodes", "node_count", "number_of_nodes"},
	}
)

// headerColumns reports whether rec, a table's first row, is a header, and where it puts the
// file and value columns: by their names, or for two cells (and pandas' ",file,label") by
// their places. A row of more cells that names no graph file is a header, and must name both
// columns.
func headerColumns(idx fileIndex, rec []string, column string) (tableColumns, bool, error) {
	named := func(names []string) int {
		for i, cell := range rec {
			if slices.Contains(names, strings.ToLower(cell)) {
				return i
			}
		}
		return -1
	}
	for _, cell := range rec {
		if _, err := idx.named(cell); err == nil {
			return tableColumns{}, false, nil // a row of data
		}
	}
	file, value := named(fileColumnNames), named(valueColumnNames[column])
	switch {
	case file >= 0 && value >= 0 && file != value:
		return tableColumns{file: file, value: value, width: len(rec)}, true, nil
	case len(rec) == 2:
		return tableColumns{file: 0, value: 1, width: 2}, isHeader(idx, rec[0], rec[1], column), nil
	case len(rec) == 3 && rec[0] == "": // pandas' index column
		return tableColumns{file: 1, value: 2, width: 3}, true, nil
	}
	return tableColumns{}, false, fmt.Errorf("%d cells, and a header %q that does not name the file column (%s) and the %s column (%s)",
		len(rec), strings.Join(rec, ","), strings.Join(fileColumnNames[:3], ", "), column, strings.Join(valueColumnNames[column][:2], " or "))
}

// isHeader reports whether a first row (file, value) of two cells that names no graph file is
// a header: its first cell names no file even without its extension and has no graph file's
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

// notAGraph is the error of a name that names none of the graphs: it shows how they are named,
// and where the name is a number (a row number, pandas' index) that a number names no graph.
func (idx fileIndex) notAGraph(name string) error {
	if idx.example == "" {
		return fmt.Errorf("%q is not a graph file of the folder", name)
	}
	plain := withoutGz(idx.example) // g0.graphml.gz is named g0 too (newFileIndex)
	stem := strings.TrimSuffix(plain, filepath.Ext(plain))
	if _, err := strconv.ParseUint(name, 10, 64); err == nil && !strings.Contains(idx.example, collectionSep) {
		return fmt.Errorf("%q is not a graph file of the folder: a table names each graph by its file's name (%s or %s), not by a number", name, idx.example, stem)
	}
	return fmt.Errorf("%q is not a graph file of the folder, whose graphs are named like %s", name, idx.example)
}

// fileIndex finds the graph a table's row names among a folder's graph names, in constant
// time a row: a collection holds as many graphs as a table has rows.
type fileIndex struct {
	names       map[string]bool
	stems       map[string][]string // name without its extension → names (not a collection's graphs)
	collections map[string]int      // the files whose graphs are named FILE#i: how many
	example     string              // a graph's name, for errors
}

func newFileIndex(files []string) fileIndex {
	idx := fileIndex{names: map[string]bool{}, stems: map[string][]string{}, collections: map[string]int{}}
	if len(files) > 0 {
		idx.example = slices.Min(files)
	}
	for _, f := range files {
		idx.names[f] = true
		if strings.Contains(filepath.Ext(f), collectionSep) { // FILE#i, FILE may hold # too
			idx.collections[f[:strings.LastIndex(f, collectionSep)]]++
			continue
		}
		stem := strings.TrimSuffix(f, filepath.Ext(f))
		idx.stems[stem] = append(idx.stems[stem], f)
		if inner := strings.TrimSuffix(stem, filepath.Ext(stem)); gzipName(f) && inner != stem { // g1.graphml.gz is g1 too
			idx.stems[inner] = append(idx.stems[inner], f)
		}
	}
	return idx
}

// named is the graph that name names: itself, or the only file whose name without its
// extension is name. A path ("data/graphs/g1.json", "C:\\data\\g1.json", as scripts that list
// the files they wrote make them) names the folder's graph of its last element.
func (idx fileIndex) named(name string) (string, error) {
	if idx.names[name] {
		return name, nil
	}
	if at := strings.LastIndexAny(name, `/\`); at >= 0 && at < len(name)-1 {
		if graph, err := idx.named(name[at+1:]); err == nil {
			return graph, nil
		}
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
		return "", idx.notAGraph(name)
	case 1:
		return stem[0], nil
	default:
		return "", fmt.Errorf("%q may be any of %s: write the file's whole name", name, strings.Join(stem, ", "))
	}
}
