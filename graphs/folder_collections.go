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
	"fmt"
	"io"

	"path/filepath"
	"strconv"
	"strings"
)

// collectionSep joins a collection file's name and a graph's index in the graph's name.
const collectionSep = "#"

// collections are the raw graphs of a folder's collection files, by file name.
type collections map[string][][]byte

// readCollections finds the collection files among files (of the folder dir) and splits each
// into its graphs' raw bytes; the other files are left for readGraphFile. A collection file
// may hold at most lim.MaxDenseBytes bytes, the memory of one whole read.
func readCollections(dir string, files []string, lim Limits) (collections, error) {
	coll := collections{}
	for _, name := range files {
		format := folderFormat(name)
		if format != "graph6" && format != "json" {
			continue
		}
		p := filepath.Join(dir, name)
		graphs, err := splitCollection(p, format, lim.MaxDenseBytes)
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
// more than one graph line; JSON: a list), else nil.
func splitCollection(p, format string, maxBytes int64) ([][]byte, error) {
	f, err := openGraphFile(p, maxBytes+1) // past maxBytes is told below
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
	b, err := io.ReadAll(io.LimitReader(br, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	tooLarge := int64(len(b)) > maxBytes
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
		return nil, fmt.Errorf("%s: a file of several graphs larger than %d bytes, the memory limit of one read (raise --max-memory)", p, maxBytes)
	}
	return graphs, err
}

// splitJSONList splits a JSON list into its elements.
func splitJSONList(p string, b []byte) ([][]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	if _, err := dec.Token(); err != nil { // the '['
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var graphs [][]byte
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: graph %d of the list: %w", p, len(graphs), err)
		}
		graphs = append(graphs, raw)
	}
	if _, err := dec.Token(); err != nil { // the ']'
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("%s: an empty list: no graphs", p)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: more after the list of graphs", p)
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
		g, err = readJSONGraph(graphs[i], label, NodeLinkOptions{Attributes: opt.Features.HasAttributes(), Categories: opt.Features.HasLabels(), Limits: lim}, lim)
	}
	return g, true, err
}
