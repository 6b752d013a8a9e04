package graphs

// Writer for the TU Dortmund format that ReadTU reads, one graph at a time, so that a corpus of
// any size is written in the memory of its largest graph.

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// TUWriteOptions controls NewTUWriter.
type TUWriteOptions struct {
	// Gzip writes NAME_*.txt.gz files instead of plain ones (ReadTU reads both).
	Gzip bool
}

// TUWriter writes graphs, one Write call each, as the TU dataset NAME in a new folder. Nothing
// appears at the folder's path before Close: the files are written in a temporary sibling
// folder that Close renames, so a reader never sees a half-written dataset. The adjacency is
// written as 0/1 entries (TU files have no edge weights), features as node attributes, and
// class labels as graph labels; every graph must agree with the first on whether it has a
// label and on its feature width. Graph names are not kept: ReadTU names the graphs NAME#id.
type TUWriter struct {
	dir, tmp, name string
	opt            TUWriteOptions
	files          []*tuOut
	a, ind, lab    *tuOut
	attr           *tuOut
	graphs, nodes  int
	labelled       bool
	dim            int
	err            error // the first error; every later call returns it
	closed         bool
}

// tuOut is one output file: the OS file, an optional gzip layer and a buffer on top.
type tuOut struct {
	f  *os.File
	zw *gzip.Writer
	w  *bufio.Writer
}

// NewTUWriter starts the dataset name in the folder dir, which must not exist yet (its parent
// must).
func NewTUWriter(dir, name string, opt TUWriteOptions) (*TUWriter, error) {
	if name == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("graphs: write TU dataset: invalid name %q (want a plain file-name prefix)", name)
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("graphs: write TU dataset %s: %s already exists", name, dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("graphs: write TU dataset %s: %w", name, err)
	}
	clean := filepath.Clean(dir)
	tmp, err := os.MkdirTemp(filepath.Dir(clean), "."+filepath.Base(clean)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("graphs: write TU dataset %s: %w", name, err)
	}
	w := &TUWriter{dir: clean, tmp: tmp, name: name, opt: opt}
	if w.a, err = w.create("_A"); err == nil {
		w.ind, err = w.create("_graph_indicator")
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// create opens NAME_suffix.txt[.gz] in the temporary folder.
func (w *TUWriter) create(suffix string) (*tuOut, error) {
	p := filepath.Join(w.tmp, w.name+suffix+".txt")
	if w.opt.Gzip {
		p += ".gz"
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("graphs: write TU dataset %s: %w", w.name, err)
	}
	o := &tuOut{f: f}
	var dst io.Writer = f
	if w.opt.Gzip {
		o.zw = gzip.NewWriter(f)
		dst = o.zw
	}
	o.w = bufio.NewWriterSize(dst, 64<<10)
	w.files = append(w.files, o)
	return o, nil
}

// Write appends g as the next graph.
func (w *TUWriter) Write(g *Graph) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return fmt.Errorf("graphs: write TU dataset %s: Write after Close", w.name)
	}
	if err := w.write(g); err != nil {
		w.err = fmt.Errorf("graphs: write TU dataset %s: graph %d (%s): %w", w.name, w.graphs+1, g.Name, err)
		w.Abort()
		return w.err
	}
	w.graphs++
	w.nodes += g.N()
	return nil
}

func (w *TUWriter) write(g *Graph) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if w.graphs == 0 {
		w.labelled, w.dim = g.HasLabel, g.Dim()
		var err error
		if w.labelled {
			if w.lab, err = w.create("_graph_labels"); err != nil {
				return err
			}
		}
		if w.dim > 0 {
			if w.attr, err = w.create("_node_attributes"); err != nil {
				return err
			}
		}
	}
	switch {
	case g.HasLabel != w.labelled:
		return fmt.Errorf("has a class label = %v, but the first graph %v", g.HasLabel, w.labelled)
	case g.Dim() != w.dim:
		return fmt.Errorf("%d node features, but the first graph has %d", g.Dim(), w.dim)
	}
	n := g.N()
	// Check the weights before writing anything of this graph, so an error leaves no half graph.
	for u := 0; u < n; u++ {
		_, vals := g.A.Row(u)
		for _, c := range vals {
			if c != 1 {
				return fmt.Errorf("edge weight %v: the TU format holds 0/1 adjacency entries only", c)
			}
		}
	}
	var buf []byte
	id := strconv.Itoa(w.graphs + 1)
	for u := 0; u < n; u++ {
		w.ind.w.WriteString(id)
		w.ind.w.WriteByte('\n')
		cols, _ := g.A.Row(u)
		for _, v := range cols {
			buf = strconv.AppendInt(buf[:0], int64(w.nodes+u+1), 10)
			buf = append(buf, ", "...)
			buf = strconv.AppendInt(buf, int64(w.nodes+int(v)+1), 10)
			buf = append(buf, '\n')
			w.a.w.Write(buf)
		}
		if w.attr != nil {
			buf = buf[:0]
			for j, x := range g.F.RawRowView(u) {
				if j > 0 {
					buf = append(buf, ", "...)
				}
				buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
			}
			buf = append(buf, '\n')
			w.attr.w.Write(buf)
		}
	}
	if w.lab != nil {
		w.lab.w.WriteString(strconv.Itoa(g.Label))
		w.lab.w.WriteByte('\n')
	}
	return nil
}

// Graphs is the number of graphs written so far.
func (w *TUWriter) Graphs() int { return w.graphs }

// Close flushes and syncs the files and renames the temporary folder to the dataset's folder.
// A dataset without graphs is an error (ReadTU would refuse it). On error nothing is left
// behind.
func (w *TUWriter) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	fail := func(err error) error {
		w.err = fmt.Errorf("graphs: write TU dataset %s: %w", w.name, err)
		w.Abort()
		return w.err
	}
	if w.graphs == 0 {
		return fail(errors.New("no graphs written"))
	}
	for _, o := range w.files {
		err := o.w.Flush()
		if err == nil && o.zw != nil {
			err = o.zw.Close()
		}
		if err == nil {
			err = o.f.Sync()
		}
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(err)
		}
	}
	w.files = nil
	if err := os.Chmod(w.tmp, 0o755); err != nil {
		return fail(err)
	}
	if err := os.Rename(w.tmp, w.dir); err != nil {
		return fail(err)
	}
	return nil
}

// Abort discards everything written: the temporary folder is removed and the dataset's folder
// never appears. Calling it after a successful Close does nothing.
func (w *TUWriter) Abort() {
	for _, o := range w.files {
		o.f.Close()
	}
	w.files = nil
	if w.tmp != "" && w.err == nil && w.closed {
		return // renamed: the folder is the dataset's now
	}
	os.RemoveAll(w.tmp)
	w.closed = true
}

// WriteTU writes gs as the TU dataset name in the new folder dir (a TUWriter, in one call).
func WriteTU(dir, name string, gs []*Graph, opt TUWriteOptions) error {
	w, err := NewTUWriter(dir, name, opt)
	if err != nil {
		return err
	}
	for _, g := range gs {
		if err := w.Write(g); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}
