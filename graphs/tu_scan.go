package graphs

// A sequential reader of TU datasets: the graphs one at a time, in file order, every file read
// once, so that a corpus far larger than memory can be processed in chunks in linear time
// (ReadTU with TUOptions.Select reads every file again for every chunk).

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// TUScanner reads the graphs of a TU dataset in file order, one Next (or Skip) at a time: memory
// holds the graph sizes and class labels of the whole dataset (a few integers per graph) and one
// graph. Graphs, names, labels and features are those ReadTU gives. It needs the adjacency file
// grouped by graph, graph 1's lines first (every TU file and TUWriter's are: lines sorted by
// node); NewTUScanner reads it through once to check that, and reports a line out of that order
// as an error naming it, so no graph is handed out short of its edges.
type TUScanner struct {
	r      *tuReader
	ds     *Dataset // Name, Classes, NodeLabels; no graphs
	labels []int    // class index of every graph, nil when unlabelled
	next   int      // 0-based graph Next returns
	lim    Limits

	a, nl, attr *tuLines
	values      []int // the one-hot node-label values (FeaturesLabels, FeaturesBoth)
	degrees     bool  // FeaturesDegrees: the files' features are not read, each graph gets its degrees
	nlParse     tuNodeLabels
	unknown     int // nodes built whose label is not among values
	adim        int // attribute width, known from the first attribute line
	edge        [2]int
	hasEdge     bool        // edge holds a line read but not used yet
	entries     []csr.Entry // the current graph's adjacency lines, reused
}

// NewTUScanner opens the TU dataset in the folder dir (as ReadTUPath: the name is that of its
// NAME_A.txt[.gz] file). opt.Select is not used: skip graphs with Skip. The graph indicator,
// graph labels and node labels (for FeaturesLabels) are read through first; Close releases
// the files.
func NewTUScanner(dir string, opt TUOptions) (*TUScanner, error) {
	name, err := scanDirName(dir)
	if err != nil {
		return nil, err
	}
	s := &TUScanner{r: &tuReader{fsys: os.DirFS(dir), dir: ".", name: name, opt: opt, shown: dir}, lim: opt.Limits.OrDefault()}
	if opt.Features == FeaturesDegrees {
		s.degrees, s.r.opt.Features = true, FeaturesNone
	}
	if err := s.open(); err != nil {
		s.Close()
		return nil, fmt.Errorf("graphs: scan TU dataset %s: %w", name, err)
	}
	return s, nil
}

func (s *TUScanner) open() error {
	r := s.r
	if err := checkNodeLabelValues(r.opt.Features, r.opt.NodeLabels); err != nil {
		return err
	}
	fA, err := r.need("_A")
	if err != nil {
		return err
	}
	fInd, err := r.need("_graph_indicator")
	if err != nil {
		return err
	}
	fGL, hasGL, err := r.find("_graph_labels")
	if err != nil {
		return err
	}
	if err := r.readIndicator(fInd, s.lim); err != nil {
		return err
	}
	n := len(r.starts) - 1
	s.ds = &Dataset{Name: r.name, Encoding: FeatureEncoding{Kind: r.opt.Features}}
	if s.degrees {
		s.ds.Encoding.Kind = FeaturesDegrees
	}
	if hasGL {
		if s.labels, s.ds.Classes, err = r.readGraphLabels(fGL, n); err != nil {
			return err
		}
	}
	if r.opt.Features < FeaturesNone || r.opt.Features > FeaturesBoth {
		return fmt.Errorf("unknown feature kind %d", int(r.opt.Features))
	}
	if r.opt.Features.HasLabels() {
		f, err := r.need("_node_labels")
		if err != nil {
			return err
		}
		if s.values = slices.Clone(r.opt.NodeLabels); s.values == nil {
			if s.values, err = s.nodeLabelValues(f); err != nil {
				return err
			}
		}
		s.ds.NodeLabels = s.values
		s.ds.Encoding.NodeLabels = s.values
		if s.nl, err = r.openLines(f); err != nil {
			return err
		}
	}
	if r.opt.Features.HasAttributes() {
		f, err := r.need("_node_attributes")
		if err != nil {
			return err
		}
		if s.attr, err = r.openLines(f); err != nil {
			return err
		}
		if s.nl != nil { // where the labels start is part of the encoding, known before any graph
			if s.adim, err = r.attributeWidth(f); err != nil {
				return err
			}
			s.ds.Encoding.Attributes = s.adim
		}
	}
	if err := s.checkGrouped(fA); err != nil {
		return err
	}
	s.a, err = r.openLines(fA)
	return err
}

// checkGrouped reads the adjacency file through once, checking that its lines come graph by
// graph, so that no graph is handed out short of edges that a later line would have given it.
func (s *TUScanner) checkGrouped(f tuFile) error {
	starts := s.r.starts
	total, last := starts[len(starts)-1], 0
	_, err := s.r.eachLine(f, func(line int, text string) error {
		a, _, _ := strings.Cut(text, ",")
		u, err := tuInt(a, 1)
		if err != nil {
			return err
		}
		if u < 1 || u > total {
			return fmt.Errorf("node id %d out of range 1..%d", u, total)
		}
		g := last
		for u-1 >= starts[g+1] {
			g++
		}
		if u-1 < starts[g] {
			of := sort.Search(len(starts)-1, func(h int) bool { return starts[h+1] > u-1 })
			return fmt.Errorf("node %d is in graph %d, but an earlier line was in graph %d: the file is not grouped by graph (read it with ReadTU)", u, of+1, last+1)
		}
		last = g
		return nil
	})
	return err
}

// nodeLabelValues reads the distinct node-label values, sorted.
func (s *TUScanner) nodeLabelValues(f tuFile) ([]int, error) {
	n := s.r.starts[len(s.r.starts)-1]
	seen := map[int]bool{}
	var parse tuNodeLabels
	lines, err := s.r.eachLine(f, func(line int, text string) error {
		v, err := parse.parse(text)
		seen[v] = true
		return err
	})
	if err == nil && lines != n {
		err = tuLineError(f, lines+1, "%d node labels for the %d nodes of the graph indicator", lines, n)
	}
	if err != nil {
		return nil, err
	}
	values := make([]int, 0, len(seen))
	for v := range seen {
		values = append(values, v)
	}
	slices.Sort(values)
	return values, nil
}

// Dataset describes the dataset: its Name, Classes, NodeLabels and Encoding (as ReadTU sets them); its
// Graphs are nil.
func (s *TUScanner) Dataset() *Dataset { return s.ds }

// UnknownNodeLabels counts the nodes of the graphs built so far whose label is not among
// TUOptions.NodeLabels (their one-hot rows are zero).
func (s *TUScanner) UnknownNodeLabels() int { return s.unknown }

// Len is the number of graphs in the dataset.
func (s *TUScanner) Len() int { return len(s.r.starts) - 1 }

// Next returns the next graph, or io.EOF after the last.
func (s *TUScanner) Next() (*Graph, error) { return s.step(true) }

// Skip reads past the next graph without building it; io.EOF after the last.
func (s *TUScanner) Skip() error {
	_, err := s.step(false)
	return err
}

func (s *TUScanner) step(build bool) (*Graph, error) {
	g := s.next
	if g >= s.Len() {
		return nil, io.EOF
	}
	lo, hi := s.r.starts[g], s.r.starts[g+1]
	n := hi - lo
	var f *mat.Dense
	var maxEdges int64 = -1 // skip the edges
	if build {
		what := fmt.Sprintf("graph %s#%d", s.r.name, g+1)
		if err := checkDenseSize(what, n, s.featureWidth(), s.lim); err != nil {
			return nil, err
		}
		b := nodeBytes(n, s.featureWidth())
		if b > s.lim.MaxDenseBytes {
			return nil, fmt.Errorf("%s: its nodes and features need %s, over the limit of %s", what, tuBytes(b), tuBytes(s.lim.MaxDenseBytes))
		}
		maxEdges = (s.lim.MaxDenseBytes - b) / scanBytesPerEdge
	}
	if err := s.edges(g, lo, hi, maxEdges); err != nil {
		return nil, err
	}
	f, err := s.features(n, build)
	if err != nil {
		return nil, err
	}
	s.next++
	if s.next == s.Len() {
		if err := s.checkNodeFilesEnd(); err != nil {
			return nil, err
		}
	}
	if !build {
		return nil, nil
	}
	c, err := csr.Build(n, s.entries)
	if err != nil {
		return nil, err
	}
	var mu []float64
	if s.r.opt.DegreeMu {
		mu = DegreeMu(c)
	}
	if s.degrees && n > 0 {
		x := make([]float64, n*DegreeBins)
		OneHotDegrees(c, x)
		f = mat.NewDense(n, DegreeBins, x)
	}
	gr, err := NewSparse(fmt.Sprintf("%s#%d", s.r.name, g+1), c, mu, f)
	if err != nil {
		return nil, err
	}
	if s.labels != nil {
		gr.Label, gr.HasLabel = s.labels[g], true
	}
	return gr, nil
}

// featureWidth is the width of the node features of the graphs built.
func (s *TUScanner) featureWidth() int {
	if s.degrees {
		return DegreeBins
	}
	return s.adim + len(s.values)
}

// scanBytesPerEdge is what an adjacency line of the graph being built costs: its entry (24
// bytes, with room for the slice's growth) and its place in the sparse matrix (12).
const scanBytesPerEdge = 2*24 + 12

// edges reads the adjacency lines of graph g (nodes lo..hi-1, 0-based) into s.entries, at most
// maxEdges of them (negative: skip them).
func (s *TUScanner) edges(g, lo, hi int, maxEdges int64) error {
	total := s.r.starts[len(s.r.starts)-1]
	s.entries = s.entries[:0]
	for {
		if !s.hasEdge {
			text, ok, err := s.a.next()
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			a, b, cut := strings.Cut(text, ",")
			if !cut || strings.Contains(b, ",") {
				return s.a.fail("%d comma-separated fields, want 2 (\"row, col\")", strings.Count(text, ",")+1)
			}
			u, err := tuInt(a, 1)
			if err != nil {
				return s.a.fail("%v", err)
			}
			v, err := tuInt(b, 2)
			if err != nil {
				return s.a.fail("%v", err)
			}
			for _, x := range []int{u, v} {
				if x < 1 || x > total {
					return s.a.fail("node id %d out of range 1..%d", x, total)
				}
			}
			s.edge, s.hasEdge = [2]int{u - 1, v - 1}, true
		}
		u, v := s.edge[0], s.edge[1]
		switch {
		case u >= hi && v >= hi:
			return nil // a later graph's line
		case u >= hi:
			return s.a.fail("edge %d, %d crosses graphs", u+1, v+1)
		case u < lo:
			return s.a.fail("node %d is in an earlier graph than the lines before it: the file is not grouped by graph (read it with ReadTU)", u+1)
		case v < lo || v >= hi:
			return s.a.fail("edge %d, %d crosses graphs", u+1, v+1)
		}
		if maxEdges >= 0 {
			if int64(len(s.entries)) == maxEdges {
				return s.a.fail("more than %d edge lines: with the graph's nodes, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)", maxEdges, tuBytes(s.lim.MaxDenseBytes))
			}
			s.entries = append(s.entries, csr.Entry{Row: u - lo, Col: v - lo, Val: 1})
		}
		s.hasEdge = false
	}
}

// attributeWidth is the number of attributes on the first line of f (0 when f is empty).
func (r *tuReader) attributeWidth(f tuFile) (int, error) {
	l, err := r.openLines(f)
	if err != nil {
		return 0, err
	}
	defer l.close()
	text, ok, err := l.next()
	if err != nil || !ok {
		return 0, err
	}
	return strings.Count(text, ",") + 1, nil
}

// features reads the node features of the next n nodes: attributes, one-hot node labels, or
// both side by side (nil unless build).
func (s *TUScanner) features(n int, build bool) (*mat.Dense, error) {
	var a, l *mat.Dense
	var err error
	if s.attr != nil {
		if a, err = s.attributes(n, build); err != nil {
			return nil, err
		}
	}
	if s.nl != nil {
		if l, err = s.nodeLabels(n, build); err != nil {
			return nil, err
		}
	}
	switch {
	case a == nil:
		return l, nil
	case l == nil:
		return a, nil
	}
	return besideAttributes(a, l), nil
}

// nodeLabels reads n node labels and one-hot encodes them when build.
func (s *TUScanner) nodeLabels(n int, build bool) (*mat.Dense, error) {
	var f *mat.Dense
	if build {
		f = mat.NewDense(n, len(s.values), nil)
	}
	for i := range n {
		text, ok, err := s.nl.next()
		if err == nil && !ok {
			err = s.nl.fail("missing: fewer node labels than the nodes of the graph indicator")
		}
		if err != nil {
			return nil, err
		}
		v, err := s.nlParse.parse(text)
		if err != nil {
			return nil, s.nl.fail("%v", err)
		}
		if f != nil {
			if k, ok := slices.BinarySearch(s.values, v); ok {
				f.Set(i, k, 1)
			} else {
				s.unknown++
			}
		}
	}
	return f, nil
}

// attributes reads n attribute lines, all as wide as the dataset's first.
func (s *TUScanner) attributes(n int, build bool) (*mat.Dense, error) {
	var data []float64
	for range n {
		text, ok, err := s.attr.next()
		if err == nil && !ok {
			err = s.attr.fail("missing: fewer attribute lines than the nodes of the graph indicator")
		}
		if err != nil {
			return nil, err
		}
		fields := strings.Split(text, ",")
		if s.adim == 0 {
			s.adim = len(fields)
		} else if len(fields) != s.adim {
			return nil, s.attr.fail("%d attributes, but line 1 has %d", len(fields), s.adim)
		}
		for j, field := range fields {
			v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
			if err != nil || v != v || v > maxFinite || v < -maxFinite {
				return nil, s.attr.fail("attribute %d (%q) is not a finite number", j+1, strings.TrimSpace(field))
			}
			if v > MaxValue || v < -MaxValue {
				return nil, s.attr.fail("attribute %d is %s", j+1, tooLargeValue(v))
			}
			if build {
				data = append(data, v)
			}
		}
	}
	if !build {
		return nil, nil
	}
	return mat.NewDense(n, s.adim, data), nil
}

// checkNodeFilesEnd, after the last graph, reports text left in the per-node files (node
// labels or attributes) as ReadTU does: more lines than nodes, or an empty line before text.
func (s *TUScanner) checkNodeFilesEnd() error {
	for _, f := range []struct {
		l    *tuLines
		what string
	}{{s.nl, "node labels"}, {s.attr, "attribute lines"}} {
		if f.l == nil {
			continue
		}
		_, ok, err := f.l.next()
		if err == nil && ok {
			err = f.l.fail("%w", errMoreLines(f.what, s.r.starts[s.Len()]))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// maxFinite is the largest float64.
const maxFinite = 1.7976931348623157e308

// Close releases the files.
func (s *TUScanner) Close() error {
	var errs []error
	for _, l := range []*tuLines{s.a, s.nl, s.attr} {
		if l != nil {
			errs = append(errs, l.close())
		}
	}
	return errors.Join(errs...)
}

// tuLines pulls the non-empty lines of one file, with their numbers for messages.
type tuLines struct {
	f     tuFile
	file  fs.File
	zr    *gzip.Reader
	sc    *bufio.Scanner
	er    *tuErrReader
	line  int
	blank int // first empty line not yet followed by text
}

// openLines opens f for pulling lines.
func (r *tuReader) openLines(f tuFile) (*tuLines, error) {
	file, err := r.fsys.Open(f.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.label, err)
	}
	l := &tuLines{f: f, file: file}
	var src io.Reader = file
	if strings.HasSuffix(f.path, ".gz") {
		if l.zr, err = gzip.NewReader(file); err != nil {
			file.Close()
			return nil, tuLineError(f, 1, "not a readable gzip file: %w", err)
		}
		src = l.zr
	}
	l.er = &tuErrReader{r: src}
	l.sc = bufio.NewScanner(l.er)
	l.sc.Buffer(make([]byte, 0, 64<<10), tuMaxLine)
	return l, nil
}

// next returns the next non-empty line, trimmed; ok is false at the end of the file. An empty
// line followed by text is an error, as in ReadTU.
func (l *tuLines) next() (text string, ok bool, err error) {
	for l.sc.Scan() {
		if l.er.err != nil {
			break
		}
		l.line++
		text = strings.TrimSpace(l.sc.Text())
		if text == "" {
			if l.blank == 0 {
				l.blank = l.line
			}
			continue
		}
		if l.blank != 0 {
			return "", false, tuLineError(l.f, l.blank, "empty line")
		}
		return text, true, nil
	}
	err = l.sc.Err()
	if err == nil {
		err = l.er.err
	}
	if err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return "", false, tuLineError(l.f, l.line+1, "line longer than %d bytes", tuMaxLine)
		}
		return "", false, tuLineError(l.f, l.line+1, "read error (truncated or corrupt file?): %w", err)
	}
	return "", false, nil
}

// fail is an error at the current line.
func (l *tuLines) fail(format string, args ...any) error {
	return tuLineError(l.f, l.line, format, args...)
}

func (l *tuLines) close() error {
	if l.zr != nil {
		l.zr.Close()
	}
	return l.file.Close()
}

// scanDirName is the dataset name of a TU folder, chosen as readTUDir chooses it.
func scanDirName(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("graphs: scan TU folder: %w", err)
	}
	var names []string
	for _, e := range entries {
		for _, suffix := range []string{"_A.txt", "_A.txt.gz"} {
			if n, ok := strings.CutSuffix(e.Name(), suffix); ok && !e.IsDir() && n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	switch base := filepath.Base(filepath.Clean(dir)); {
	case len(names) == 1:
		return names[0], nil
	case len(names) == 0:
		return "", fmt.Errorf("graphs: scan TU folder %s: no NAME_A.txt or NAME_A.txt.gz file there%s", dir, tuFolderHint(dir))
	case slices.Contains(names, base):
		return base, nil
	}
	return "", fmt.Errorf("graphs: scan TU folder %s: it holds several datasets (%s)", dir, strings.Join(names, ", "))
}
