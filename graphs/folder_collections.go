package graphs

// A graph folder's file may hold several graphs: a graph6 file of several lines (nauty's
// collections, the House of Graphs, networkx's to_graph6_bytes of each graph) or a JSON file
// whose top level is a list of graphs (json.dump([nx.node_link_data(g) for g in graphs])).
// Its graphs are named FILE#i, i = 0, 1, ... in the file's order, as Python indexes the list
// the file was written from; labels.csv names them so, and a node-link graph's "graph"
// "label" labels it as in a file of its own.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/internal/jsonread"
)

// collectionSep joins a collection file's name and a graph's index in the graph's name.
const collectionSep = "#"

// collections are the raw graphs of a folder's collection files, by file name.
type collections map[string][][]byte

// readCollections finds the collection files among files (of the folder dir) and splits each
// into its graphs' raw bytes; the other files are left for readGraphFile. A collection file's
// text is held until its graphs are read: it may take lim's share of memory for text.
func readCollections(dir string, files []string, lim Limits) (collections, error) {
	coll := collections{}
	bound := newTextBound(lim, math.MaxInt64, jsonTextShare) // as many graphs as memory allows
	for _, name := range files {
		format := folderFormat(name)
		if format != "graph6" && format != "json" {
			continue
		}
		p := filepath.Join(dir, name)
		graphs, err := splitCollection(p, format, bound)
		if err != nil {
			return nil, err
		}
		if graphs != nil {
			coll[name] = graphs
		}
	}
	return coll, nil
}

// splitCollection returns the raw graphs of the file at p when it is a collection (graph6:
// more than one graph line; JSON: a list), else nil. They are slices of the file's text, read
// once.
func splitCollection(p, format string, bound textBound) ([][]byte, error) {
	f, err := openGraphFile(p, textBound{bytes: bound.bytes + 1, flag: bound.flag}) // past the bound is told below
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if format == "json" {
		head, _ := br.Peek(4096)
		if !bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n"), []byte("[")) {
			return nil, nil // one graph, an object
		}
	}
	b, err := jsonread.All(hinted{br, sizeHint(f)}, bound.bytes+1)
	if err != nil && !errors.Is(err, jsonread.ErrTooLarge) {
		return nil, readError(p, err)
	}
	tooLarge := err != nil
	var graphs [][]byte
	if format == "json" && !tooLarge {
		graphs, err = splitJSONList(p, b)
	} else if format == "graph6" {
		for line := range bytes.Lines(b) {
			if line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(line), []byte(graph6Header))); len(line) > 0 {
				graphs = append(graphs, line)
			}
		}
		if len(graphs) < 2 {
			return nil, nil // one graph: ReadGraph6 bounds it by the nodes it may have
		}
	}
	if tooLarge {
		return nil, fmt.Errorf("%s: a file of several graphs larger than %d bytes, more text than a read within the memory limit may hold (raise --max-memory)", p, bound.bytes)
	}
	return graphs, err
}

// hinted is a reader with the size hint of the file it reads (jsonread.SizeHinter).
type hinted struct {
	io.Reader
	hint int64
}

func (h hinted) SizeHint() int64 { return h.hint }

// sizeHint is the size of the content of an open graph file, or a lower bound of it (a
// compressed one's); -1 when unknown.
func sizeHint(f io.Reader) int64 {
	switch s := f.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	case jsonread.SizeHinter:
		return s.SizeHint()
	}
	return -1
}

// splitJSONList splits a JSON list into the texts of its elements, slices of b.
func splitJSONList(p string, b []byte) ([][]byte, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var elems []jsonPresent // checks the text, keeping nothing
	if err := json.Unmarshal(b, &elems); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && strings.HasSuffix(syn.Error(), "after top-level value") {
			return nil, fmt.Errorf("%s: more after the list of graphs, at %s", p, textPosition(b, syn.Offset-1))
		}
		return nil, jsonDecodeError(p, b, err)
	}
	graphs, _ := jsonArrayElements(b)
	if len(graphs) == 0 {
		return nil, fmt.Errorf("%s: an empty list: no graphs", p)
	}
	return graphs, nil
}

// expand lists files with each collection file replaced by its graphs' names, FILE#i.
func (coll collections) expand(files []string) []string {
	if len(coll) == 0 {
		return files
	}
	var out []string
	for _, name := range files {
		graphs, ok := coll[name]
		if !ok {
			out = append(out, name)
			continue
		}
		for i := range graphs {
			out = append(out, name+collectionSep+strconv.Itoa(i))
		}
	}
	return out
}

// read reads the graph named FILE#i of a collection file (ok false for the name of a file of
// its own); dir is the folder, for errors.
func (coll collections) read(dir, name string, opt FolderOptions, lim Limits) (g *Graph, ok bool, err error) {
	at := strings.LastIndex(name, collectionSep) // FILE#i, FILE may hold # too
	if at < 0 {
		return nil, false, nil
	}
	file := name[:at]
	graphs, isColl := coll[file]
	if !isColl {
		return nil, false, nil
	}
	i, _ := strconv.Atoi(name[at+len(collectionSep):]) // written by expand
	label := filepath.Join(dir, name)
	if folderFormat(file) == "graph6" {
		g, err = ReadGraph6(bytes.NewReader(graphs[i]), label, lim)
	} else {
		g, err = readJSONGraph(graphs[i], label, NodeLinkOptions{Attributes: opt.Features.HasAttributes(), Categories: opt.Features.HasLabels(), Limits: lim,
			OmitPartialAttributes: opt.OmitPartialAttributes}, lim)
	}
	return g, true, err
}
