package graphs

// Reader for the TU Dortmund graph-classification format ("TUDataset",
// https://chrsmrrs.github.io/datasets/docs/format/). A dataset NAME is a set of text files in
// one folder, each optionally gzip-compressed (NAME_A.txt or NAME_A.txt.gz, ...):
//
//	NAME_A.txt               m lines "row, col": entries of the block-diagonal adjacency, 1-based global node ids
//	NAME_graph_indicator.txt n lines: graph id (1..N, sorted) of node i
//	NAME_graph_labels.txt    N lines, optional: class label of graph i
//	NAME_node_labels.txt     n lines, optional: integer label of node i (or a few columns: one label)
//	NAME_node_attributes.txt n lines, optional: comma-separated real attributes of node i
//
// Edge labels and attributes are not read.

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// FeatureKind says which node features ReadTU puts into Graph.F.
type FeatureKind int

const (
	// FeaturesNone leaves Graph.F nil.
	FeaturesNone FeatureKind = iota
	// FeaturesLabels one-hot encodes the integer node labels. The width is the number of distinct
	// node-label values in the whole dataset and column k stands for the k-th smallest value
	// (Dataset.NodeLabels), so the encoding is the same for every graph and every run.
	FeaturesLabels
	// FeaturesAttributes uses the real-valued node attributes as they are.
	FeaturesAttributes
	// FeaturesBoth puts the one-hot node labels (as FeaturesLabels) after the node attributes
	// (as FeaturesAttributes), for data that have both: molecules with atom types and
	// coordinates, proteins with structure types and sizes. FeatureEncoding.Attributes says
	// where the labels start.
	FeaturesBoth
	// FeaturesDegrees gives every node its one-hot degree (OneHotDegrees, DegreeBins columns)
	// in place of the data's own features: node features for graphs that have none, such as
	// social networks, made alike for every graph a model reads. The readers (ReadTU,
	// TUScanner, ReadFolder) read none of the files' features for it and count the degrees on
	// the adjacency, before graphs/collection gives a graph another structure.
	FeaturesDegrees
)

// String returns "none", "labels", "attributes", "both" or "degrees", the names
// ParseFeatureKind accepts.
func (k FeatureKind) String() string {
	switch k {
	case FeaturesNone:
		return "none"
	case FeaturesLabels:
		return "labels"
	case FeaturesAttributes:
		return "attributes"
	case FeaturesBoth:
		return "both"
	case FeaturesDegrees:
		return "degrees"
	}
	return "FeatureKind(" + strconv.Itoa(int(k)) + ")"
}

// featureKindList joins kinds as "labels, attributes".
func featureKindList(kinds []FeatureKind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, ", ")
}

// MarshalText implements encoding.TextMarshaler (JSON: "none", "labels", "attributes",
// "both", "degrees").
func (k FeatureKind) MarshalText() ([]byte, error) {
	if k < FeaturesNone || k > FeaturesDegrees {
		return nil, fmt.Errorf("graphs: unknown feature kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *FeatureKind) UnmarshalText(b []byte) error {
	v, err := ParseFeatureKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// checkNodeLabelValues checks TUOptions.NodeLabels: nil, or given with FeaturesLabels or
// FeaturesBoth, not empty, sorted and distinct.
func checkNodeLabelValues(kind FeatureKind, values []int) error {
	switch {
	case values == nil:
		return nil
	case !kind.HasLabels():
		return fmt.Errorf("node-label values given for features %q", kind)
	case len(values) == 0:
		return errors.New("an empty list of node-label values given")
	}
	for i := 1; i < len(values); i++ {
		if values[i] <= values[i-1] {
			return fmt.Errorf("the node-label values given are not sorted and distinct (%d after %d)", values[i], values[i-1])
		}
	}
	return nil
}

// HasLabels reports whether the kind holds one-hot node labels (labels, both).
func (k FeatureKind) HasLabels() bool { return k == FeaturesLabels || k == FeaturesBoth }

// HasAttributes reports whether the kind holds node attributes (attributes, both).
func (k FeatureKind) HasAttributes() bool { return k == FeaturesAttributes || k == FeaturesBoth }

// ParseFeatureKind parses "none", "labels", "attributes", "both" or "degrees"
// (case-insensitive), e.g. from a command-line flag.
func ParseFeatureKind(s string) (FeatureKind, error) {
	for _, k := range []FeatureKind{FeaturesNone, FeaturesLabels, FeaturesAttributes, FeaturesBoth, FeaturesDegrees} {
		if strings.EqualFold(strings.TrimSpace(s), k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("graphs: unknown feature kind %q (want none, labels, attributes, both or degrees)", s)
}

// TUOptions controls ReadTU. The zero value reads graphs without features, with uniform node
// distributions, under DefaultLimits.
type TUOptions struct {
	// Features selects the node features; asking for features the dataset lacks is an error.
	Features FeatureKind
	// DegreeMu sets each graph's Mu to DegreeMu(C) instead of the uniform distribution.
	DegreeMu bool
	// Limits bounds what ReadTU may allocate; zero fields mean DefaultLimits.
	Limits Limits
	// Select, when set, is called once the number of graphs is known (before anything big is
	// allocated) and returns the 0-based indices of the graphs to keep, sorted and distinct.
	// Only those are checked against Limits, built and returned, so a subset of a dataset too
	// large for the limits can be read. Node-label one-hot columns still count the values of
	// the whole dataset, so the encoding does not depend on the subset.
	Select func(graphs int) []int
	// NodeLabels, when set with FeaturesLabels or FeaturesBoth, are the values of the one-hot
	// columns (sorted, distinct: a model's FeatureEncoding.NodeLabels) instead of the values
	// found in the file; a node whose label is not among them gets a zero row (counted in
	// Dataset.UnknownNodeLabels).
	NodeLabels []int
	// EdgeLabels reads the dataset's edge labels (NAME_edge_labels.txt: bond types, say) into
	// each graph's EdgeLabels where the files have them; without the file the graphs have
	// none, and that is not an error.
	EdgeLabels bool
}

// Dataset is a collection of graphs, labelled or not, as read by ReadTU or ReadFolder.
type Dataset struct {
	// Name is the dataset name, the NAME prefix of its files (or the folder's name).
	Name string
	// Graphs are in file order; ReadTU names them "NAME#id" with the 1-based graph id of the
	// files. When the dataset has class labels, every graph has HasLabel set and Label is an
	// index into Classes; otherwise no graph has HasLabel and Classes is nil. (A folder read
	// with PartialLabelsKept may have graphs of both kinds: Unlabelled counts those without.)
	Graphs []*Graph
	// Classes are the distinct original class labels, sorted: Graph.Label = k means the files
	// said Classes[k]. (TU labels are not 0-based everywhere, e.g. MUTAG uses -1 and 1.)
	Classes []int
	// ClassNames, when not nil, are the class labels as text (from a labels.csv whose labels
	// are not all integers): Graph.Label = k means ClassNames[k]. Classes is nil then.
	ClassNames []string
	// NodeLabels are the distinct node-label values, sorted, when the features are
	// FeaturesLabels (one-hot column k stands for NodeLabels[k]) or FeaturesBoth (column
	// Encoding.Attributes+k does). Nil otherwise.
	NodeLabels []int
	// Encoding is how the node features of Graphs were made (kind, one-hot values, any
	// standardization): what a model trained on them keeps to encode new graphs alike.
	Encoding FeatureEncoding
	// UnknownNodeLabels counts the nodes whose label is not among TUOptions.NodeLabels: their
	// one-hot rows are zero.
	UnknownNodeLabels int
	// Offered are the kinds of node features a TU source holds files for (FeaturesLabels,
	// FeaturesAttributes), whether or not they were read: what TUOptions.Features may ask for.
	// Nil for other sources.
	Offered []FeatureKind
	// Unread names what the source has and was not read ("edge labels" where the options did
	// not ask for them, and of a TU source its "edge attributes" and "graph attributes"), so
	// that callers can say it is left out.
	Unread []string
	// LeftOut says what some graphs of a folder have and the others lack: edge labels, then
	// left out although asked for, or node labels, which the others' nodes then lack. One
	// sentence each, for callers to pass on.
	LeftOut []string
}

// tuMaxLine bounds one line of a TU file. Real lines are short (the widest, PROTEINS_full
// attributes, are about 330 bytes); the bound only stops a corrupt file from growing the buffer.
const tuMaxLine = 1 << 20

// tuMaxBlank bounds a run of empty lines (allowed only at the end of a file).
const tuMaxBlank = 1 << 16

// tuBytesPerGraph is what the reader keeps per graph of the indicator before any matrix.
const tuBytesPerGraph = 24

// tuBytesPerEdge is what an adjacency line kept costs: its key while reading (8 bytes, with
// room for the slice's growth) and its place in the sparse matrix (12).
const tuBytesPerEdge = 2*8 + 12

// ReadTU reads the TU dataset name from the folder dir of fsys (use "." for its root). Each
// file may be plain (NAME_A.txt) or gzip-compressed (NAME_A.txt.gz); the plain one wins when
// both exist. The graph labels file is optional: without it the graphs are unlabelled. Errors
// name the file and the 1-based line. The sizes of all graphs (of those opt.Select keeps) are
// checked against opt.Limits before any matrix is allocated.
func ReadTU(fsys fs.FS, dir, name string, opt TUOptions) (*Dataset, error) {
	r := &tuReader{fsys: fsys, dir: dir, name: name, opt: opt}
	ds, err := r.read()
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU dataset %s: %w", name, err)
	}
	return ds, nil
}

// readTUDir reads the TU dataset stored in the folder dir of the file system (ReadTUPath). The
// dataset name is inferred from the NAME_A.txt[.gz] file there; when the folder holds several
// datasets, the one named like the folder is read, and otherwise it is an error (use ReadTU to
// choose).
func readTUDir(dir string, opt TUOptions) (*Dataset, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU folder: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		for _, suffix := range []string{"_A.txt", "_A.txt.gz"} {
			if n, ok := strings.CutSuffix(e.Name(), suffix); ok && n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	var name string
	switch base := filepath.Base(filepath.Clean(dir)); {
	case len(names) == 1:
		name = names[0]
	case len(names) == 0:
		return nil, fmt.Errorf("graphs: read TU folder %s: no NAME_A.txt or NAME_A.txt.gz file there%s", dir, tuFolderHint(dir))
	case slices.Contains(names, base):
		name = base
	default:
		return nil, fmt.Errorf("graphs: read TU folder %s: it holds several datasets (%s); use ReadTU to pick one",
			dir, strings.Join(names, ", "))
	}
	r := &tuReader{fsys: os.DirFS(dir), dir: ".", name: name, opt: opt, shown: dir}
	ds, err := r.read()
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU dataset %s: %w", name, err)
	}
	return ds, nil
}

// tuReader holds the state of one ReadTU call.
type tuReader struct {
	fsys      fs.FS
	dir, name string
	opt       TUOptions
	// shown is the OS folder that fsys stands for, put before file names in messages; empty
	// when the caller gave an fs.FS.
	shown string

	// starts[g] is the 0-based index of the first node of graph g (0-based); starts[N] = n.
	starts []int
	// keep are the 0-based graphs to read, sorted; pos[g] is graph g's index in keep, or -1.
	keep, pos []int
	// rowStart[g] is the first feature row of kept graph g; rowStart[N] is the number of rows.
	rowStart []int
	// zip is the archive fsys stands for, when reading a .zip (see label).
	zip string
}

// tuFile is one resolved file of the dataset.
type tuFile struct {
	path  string // in fsys
	label string // for messages
}

// label names the file at p of fsys in messages: p itself, or the OS path for readTUDir.
func (r *tuReader) label(p string) string {
	if r.zip != "" {
		return r.zip + ":" + p
	}
	if r.shown == "" {
		return p
	}
	return filepath.Join(r.shown, filepath.FromSlash(p))
}

// find resolves NAME_suffix.txt, else NAME_suffix.txt.gz. ok is false when neither exists.
func (r *tuReader) find(suffix string) (f tuFile, ok bool, err error) {
	for _, ext := range []string{".txt", ".txt.gz"} {
		p := path.Join(r.dir, r.name+suffix+ext)
		_, err := fs.Stat(r.fsys, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		label := r.label(p)
		if err != nil {
			return tuFile{}, false, fmt.Errorf("%s: %w", label, err)
		}
		return tuFile{path: p, label: label}, true, nil
	}
	return tuFile{}, false, nil
}

// need is find for a file the dataset cannot do without.
func (r *tuReader) need(suffix string) (tuFile, error) {
	f, ok, err := r.find(suffix)
	if err == nil && !ok {
		err = fmt.Errorf("missing file %s (nor .gz)", r.label(path.Join(r.dir, r.name+suffix+".txt")))
	}
	return f, err
}

// tuLineError is the error of one line of one file, printed as "file:line: message".
func tuLineError(f tuFile, line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: "+format, append([]any{f.label, line}, args...)...)
}

// eachLine calls fn for every line of f, 1-based line number and trimmed text, and returns the
// number of lines. Empty lines at the end of the file are ignored (a stray final newline);
// anywhere else they are an error, because they would shift the node numbering of the files
// that are read line by line.
func (r *tuReader) eachLine(f tuFile, fn func(line int, text string) error) (int, error) {
	file, err := r.fsys.Open(f.path)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", f.label, err)
	}
	defer file.Close()
	var src io.Reader = file
	if strings.HasSuffix(f.path, ".gz") {
		zr, err := gzip.NewReader(file)
		if err != nil {
			return 0, tuLineError(f, 1, "not a readable gzip file: %w", err)
		}
		defer zr.Close()
		src = zr
	}
	er := &tuErrReader{r: src}
	sc := bufio.NewScanner(er)
	sc.Buffer(make([]byte, 0, 64<<10), tuMaxLine)
	line, lines, blank := 0, 0, 0
	for sc.Scan() {
		if er.err != nil {
			// bufio.Scanner hands out what it buffered before a read error as if the file
			// ended there, so this line may be the cut-off start of one (a truncated gzip
			// stream): report the read error rather than parse it.
			break
		}
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			if blank == 0 {
				blank = line
			}
			if line-blank >= tuMaxBlank {
				// Only trailing empty lines are allowed; this many is a broken (or hostile,
				// decompressing) file, which would otherwise be read to its end.
				return lines, tuLineError(f, blank, "more than %d empty lines", tuMaxBlank)
			}
			continue
		}
		if blank != 0 {
			return lines, tuLineError(f, blank, "empty line")
		}
		lines++
		if err := fn(line, text); err != nil {
			return lines, tuLineError(f, line, "%w", err)
		}
	}
	err = sc.Err()
	if err == nil {
		err = er.err
	}
	if err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return lines, tuLineError(f, line+1, "line longer than %d bytes", tuMaxLine)
		}
		// Typically a truncated or corrupt gzip stream (io.ErrUnexpectedEOF, gzip.ErrChecksum).
		return lines, tuLineError(f, line+1, "read error (truncated or corrupt file?): %w", err)
	}
	return lines, nil
}

// tuErrReader remembers the first read error other than io.EOF.
type tuErrReader struct {
	r   io.Reader
	err error
}

func (e *tuErrReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// tuInt parses one trimmed integer field; i is its 1-based position in the line.
func tuInt(field string, i int) (int, error) {
	field = strings.TrimSpace(field)
	v, err := strconv.Atoi(field)
	if err != nil {
		return 0, fmt.Errorf("field %d (%q) is not an integer", i, field)
	}
	return v, nil
}

// tuOneInt parses a line that must hold a single integer.
func tuOneInt(text string) (int, error) {
	if k := strings.Count(text, ",") + 1; k != 1 {
		return 0, fmt.Errorf("%d comma-separated fields, want 1", k)
	}
	return tuInt(text, 1)
}

func (r *tuReader) read() (*Dataset, error) {
	if r.opt.Features != FeaturesDegrees {
		return r.readFiles()
	}
	r.opt.Features = FeaturesNone
	ds, err := r.readFiles()
	if err != nil {
		return nil, err
	}
	if err := withDegrees(ds, r.opt.Limits.OrDefault()); err != nil {
		return nil, err
	}
	return ds, nil
}

// readFiles is read for the features the files hold.
func (r *tuReader) readFiles() (*Dataset, error) {
	opt := r.opt
	lim := opt.Limits.OrDefault()

	if err := checkNodeLabelValues(opt.Features, opt.NodeLabels); err != nil {
		return nil, err
	}
	// Resolve every file first, so a missing one is reported before any parsing.
	fA, err := r.need("_A")
	if err != nil {
		return nil, err
	}
	fInd, err := r.need("_graph_indicator")
	if err != nil {
		return nil, err
	}
	fGL, hasGL, err := r.find("_graph_labels")
	if err != nil {
		return nil, err
	}
	fNL, hasNL, err := r.find("_node_labels")
	if err != nil {
		return nil, err
	}
	fAttr, hasAttr, err := r.find("_node_attributes")
	if err != nil {
		return nil, err
	}
	fEL, hasEL, err := r.find("_edge_labels")
	if err != nil {
		return nil, err
	}
	var unread []string
	if hasEL && !opt.EdgeLabels {
		unread = append(unread, "edge labels")
	}
	for _, u := range []struct{ suffix, what string }{{"_edge_attributes", "edge attributes"}, {"_graph_attributes", "graph attributes"}} {
		if _, ok, err := r.find(u.suffix); err != nil {
			return nil, err
		} else if ok {
			unread = append(unread, u.what)
		}
	}
	var offered []FeatureKind
	if hasNL {
		offered = append(offered, FeaturesLabels)
	}
	if hasAttr {
		offered = append(offered, FeaturesAttributes)
	}
	// Asking for features the files lack is an error rather than a silent FeaturesNone: the
	// caller would otherwise compare graphs on structure alone without knowing it.
	var missing string
	switch {
	case opt.Features < FeaturesNone || opt.Features > FeaturesBoth:
		return nil, fmt.Errorf("unknown feature kind %d", int(opt.Features))
	case opt.Features.HasLabels() && !hasNL:
		missing = "_node_labels"
	case opt.Features.HasAttributes() && !hasAttr:
		missing = "_node_attributes"
	}
	if missing != "" {
		what := `no node features (only "none" works)`
		if len(offered) > 0 {
			what = "node features: " + featureKindList(offered)
		}
		return nil, fmt.Errorf("%w: features %q asked for, but there is no %s.txt[.gz]; the dataset has %s",
			ErrNoFeatures, opt.Features, r.label(path.Join(r.dir, r.name+missing)), what)
	}

	// Graph sizes come first: they are all the limits need, and nothing big is allocated yet.
	if err := r.readIndicator(fInd, lim); err != nil {
		return nil, err
	}
	ngraphs := len(r.starts) - 1
	n := r.starts[ngraphs]
	if err := r.selectGraphs(opt.Select); err != nil {
		return nil, err
	}
	if err := r.checkLimits(fInd, lim); err != nil {
		return nil, err
	}

	var labels, classes []int
	if hasGL {
		if labels, classes, err = r.readGraphLabels(fGL, ngraphs); err != nil {
			return nil, err
		}
	}

	ds := &Dataset{Name: r.name, Classes: classes, Graphs: make([]*Graph, len(r.keep))}
	ds.Offered, ds.Unread = offered, unread
	ds.Encoding.Kind = opt.Features

	// feat holds the features of all nodes, n×d row-major; each graph's F is a window on it.
	var feat []float64
	d := 0
	if opt.Features.HasAttributes() {
		if feat, d, err = r.readAttributes(fAttr, n, lim); err != nil {
			return nil, err
		}
	}
	if opt.Features.HasLabels() {
		var onehot []float64
		if onehot, ds.NodeLabels, ds.UnknownNodeLabels, err = r.readNodeLabels(fNL, n, d, lim); err != nil {
			return nil, err
		}
		ds.Encoding.NodeLabels = ds.NodeLabels
		if opt.Features == FeaturesBoth {
			ds.Encoding.Attributes = d
		}
		feat, d = appendColumns(feat, d, onehot, len(ds.NodeLabels)), d+len(ds.NodeLabels)
	}

	var lineLabels []float64
	if hasEL && opt.EdgeLabels {
		if lineLabels, err = r.readEdgeLabels(fEL, r.nodeBytes(d), lim); err != nil {
			return nil, err
		}
		ds.Encoding.EdgeLabels = true
	}
	edges, err := r.readEdges(fA, r.nodeBytes(d)+8*int64(len(lineLabels)), lim, lineLabels)
	if err != nil {
		return nil, err
	}
	if lineLabels != nil && edges.lines != len(lineLabels) {
		return nil, tuLineError(fEL, edges.lines+1, "%d edge labels for the %d lines of %s", len(lineLabels), edges.lines, fA.label)
	}
	adj, elab, err := r.adjacency(edges)
	if err != nil {
		return nil, err
	}

	for k, c := range adj {
		g := r.keep[k]
		lo, hi := r.rowStart[g], r.rowStart[g]+r.starts[g+1]-r.starts[g]
		var f *mat.Dense
		if d > 0 {
			f = mat.NewDense(hi-lo, d, feat[lo*d:hi*d:hi*d])
		}
		var mu []float64
		if opt.DegreeMu {
			mu = DegreeMu(c)
		}
		gr, err := NewSparse(fmt.Sprintf("%s#%d", r.name, g+1), c, mu, f)
		if err != nil {
			return nil, err
		}
		if elab != nil {
			gr.EdgeLabels = elab[k]
		}
		if hasGL {
			gr.Label, gr.HasLabel = labels[g], true
		}
		ds.Graphs[k] = gr
	}
	return ds, nil
}

// selectGraphs sets r.keep, r.pos and r.rowStart from the caller's selection (nil: all graphs).
func (r *tuReader) selectGraphs(sel func(int) []int) error {
	ngraphs := len(r.starts) - 1
	if sel == nil {
		r.keep = make([]int, ngraphs)
		for g := range r.keep {
			r.keep[g] = g
		}
	} else {
		r.keep = sel(ngraphs)
		for k, g := range r.keep {
			if g < 0 || g >= ngraphs || (k > 0 && g <= r.keep[k-1]) {
				return fmt.Errorf("TUOptions.Select returned %d at position %d: want sorted, distinct graph indices in 0..%d", g, k, ngraphs-1)
			}
		}
	}
	r.pos = make([]int, ngraphs)
	for g := range r.pos {
		r.pos[g] = -1
	}
	r.rowStart = make([]int, ngraphs+1)
	for k, g := range r.keep {
		r.pos[g] = k
	}
	rows := 0
	for g := 0; g < ngraphs; g++ {
		r.rowStart[g] = rows
		if r.pos[g] >= 0 {
			rows += r.starts[g+1] - r.starts[g]
		}
	}
	r.rowStart[ngraphs] = rows
	return nil
}

// rows is the number of feature rows: the nodes of the kept graphs.
func (r *tuReader) rows() int { return r.rowStart[len(r.rowStart)-1] }

// rowOf returns a function from 0-based nodes, visited in increasing order, to their feature
// row (-1 for a node of a graph that is not kept).
func (r *tuReader) rowOf() func(i int) int {
	g := 0
	return func(i int) int {
		for i >= r.starts[g+1] {
			g++
		}
		if r.pos[g] < 0 {
			return -1
		}
		return r.rowStart[g] + i - r.starts[g]
	}
}

// readIndicator fills r.starts from the graph indicator. Only the sizes are kept, so nothing
// big is allocated yet.
func (r *tuReader) readIndicator(f tuFile, lim Limits) error {
	r.starts = []int{0}
	cur := 0 // 1-based id of the graph being counted, 0 before the first line
	// The per-graph bookkeeping (starts, then the selection's positions and rows: 24 bytes a
	// graph) counts against MaxDenseBytes as the lines come, so that an endless (or
	// decompressing) file of new graph ids is refused at the line that crosses the limit.
	maxGraphs := int(min(lim.MaxDenseBytes/tuBytesPerGraph, math.MaxInt32))
	lines, err := r.eachLine(f, func(line int, text string) error {
		id, err := tuOneInt(text)
		if err != nil {
			return err
		}
		switch {
		case id < 1:
			return fmt.Errorf("graph id %d, want 1 or more", id)
		case id == cur:
			r.starts[len(r.starts)-1]++
			return nil
		case id < cur:
			return fmt.Errorf("graph ids not sorted: %d after %d", id, cur)
		case id > cur+1 && cur == 0:
			return fmt.Errorf("the first graph id is %d, so graph 1 has no nodes", id)
		case id > cur+1:
			return fmt.Errorf("graph ids not contiguous: %d after %d, so graph %d has no nodes", id, cur, cur+1)
		}
		if id > maxGraphs {
			return fmt.Errorf("more than %d graphs, whose sizes alone need more than the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)", maxGraphs, tuBytes(lim.MaxDenseBytes))
		}
		cur = id
		r.starts = append(r.starts, r.starts[len(r.starts)-1]+1)
		return nil
	})
	if err != nil {
		return err
	}
	if lines == 0 {
		return tuLineError(f, 1, "no nodes: the file is empty")
	}
	return nil
}

// checkLimits checks every kept graph against the node limit, and the per-node memory of the
// kept graphs (distributions and row pointers) against the memory limit; readNodeLabels and
// readAttributes check again once the feature width is known, readEdges as the edges come.
func (r *tuReader) checkLimits(f tuFile, lim Limits) error {
	for _, g := range r.keep {
		lo, hi := r.starts[g], r.starts[g+1]
		// Node i is on line i+1: blank lines are refused before the end of the file.
		what := fmt.Sprintf("%s:%d: graph %s#%d (lines %d-%d)", f.label, lo+1, r.name, g+1, lo+1, hi)
		if err := checkDenseSize(what, hi-lo, 0, lim); err != nil {
			return err
		}
	}
	if b := r.nodeBytes(0); b > lim.MaxDenseBytes {
		return fmt.Errorf("%s: the %d graphs' nodes need %s, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			f.label, len(r.keep), tuBytes(b), tuBytes(lim.MaxDenseBytes))
	}
	return nil
}

// nodeBytes is the memory of the kept graphs before their edges: per node a distribution entry,
// a row pointer and d features.
func (r *tuReader) nodeBytes(d int) int64 {
	var total int64
	for _, g := range r.keep {
		total += nodeBytes(r.starts[g+1]-r.starts[g], d)
	}
	return total
}

// tuBytes prints a byte count for the limit messages.
func tuBytes(b int64) string {
	return fmt.Sprintf("%d bytes (%.1f MiB)", b, float64(b)/(1<<20))
}

// readGraphLabels reads one class label per graph and maps them to indices into the sorted
// distinct labels.
func (r *tuReader) readGraphLabels(f tuFile, ngraphs int) (labels, classes []int, err error) {
	raw := make([]int, 0, ngraphs)
	lines, err := r.eachLine(f, func(line int, text string) error {
		if len(raw) == ngraphs {
			return fmt.Errorf("more graph labels than the %d graphs of the graph indicator", ngraphs)
		}
		v, err := tuOneInt(text)
		if err != nil {
			return err
		}
		raw = append(raw, v)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if lines < ngraphs {
		return nil, nil, tuLineError(f, lines+1, "missing: %d graph labels for the %d graphs of the graph indicator", lines, ngraphs)
	}
	classes = slices.Clone(raw)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	labels = make([]int, ngraphs)
	for g, v := range raw {
		labels[g], _ = slices.BinarySearch(classes, v)
	}
	return labels, classes, nil
}

// checkDense refuses the dataset when its nodes with n×d feature matrices exceed the limit.
func (r *tuReader) checkDense(d int, lim Limits) error {
	if total := r.nodeBytes(d); total > lim.MaxDenseBytes {
		return fmt.Errorf("the nodes with %d-wide feature matrices need %s, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			d, tuBytes(total), tuBytes(lim.MaxDenseBytes))
	}
	return nil
}

// errMoreLines is the error for a per-node file (what: its lines) longer than the n nodes of the
// graph indicator; ReadTU and TUScanner report it alike.
func errMoreLines(what string, n int) error {
	return fmt.Errorf("more %s than the %d nodes of the graph indicator", what, n)
}

// readNodeLabels reads one integer label per node and one-hot encodes it over the sorted distinct
// values of the whole dataset, or over opt.NodeLabels when given (unknown counts the kept nodes
// whose label is not among those). The limit counts the held columns already read beside them
// (attributes).
func (r *tuReader) readNodeLabels(f tuFile, n, held int, lim Limits) (feat []float64, values []int, unknown int, err error) {
	raw := make([]int, 0, n)
	var parse tuNodeLabels
	lines, err := r.eachLine(f, func(line int, text string) error {
		if len(raw) == n {
			return errMoreLines("node labels", n)
		}
		v, err := parse.parse(text)
		if err != nil {
			return err
		}
		raw = append(raw, v)
		return nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	if lines < n {
		return nil, nil, 0, tuLineError(f, lines+1, "missing: %d node labels for the %d nodes of the graph indicator", lines, n)
	}
	if values = slices.Clone(r.opt.NodeLabels); values == nil {
		values = slices.Clone(raw)
		slices.Sort(values)
		values = slices.Compact(values)
	}
	d := len(values)
	if err := r.checkDense(held+d, lim); err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", f.label, err)
	}
	feat = make([]float64, r.rows()*d)
	row := r.rowOf()
	for i, v := range raw {
		if j := row(i); j >= 0 {
			if k, ok := slices.BinarySearch(values, v); ok {
				feat[j*d+k] = 1
			} else {
				unknown++
			}
		}
	}
	return feat, values, unknown, nil
}

// appendColumns returns the rows×(da+db) row-major matrix whose rows are those of a (da
// columns) followed by those of b (db columns); a itself when db is 0, b when da is 0.
func appendColumns(a []float64, da int, b []float64, db int) []float64 {
	switch {
	case db == 0:
		return a
	case da == 0:
		return b
	}
	rows := len(a) / da
	out := make([]float64, rows*(da+db))
	for i := range rows {
		copy(out[i*(da+db):], a[i*da:(i+1)*da])
		copy(out[i*(da+db)+da:], b[i*db:(i+1)*db])
	}
	return out
}

// readAttributes reads one comma-separated real vector per node. The width is that of the first
// line and every line must have it.
func (r *tuReader) readAttributes(f tuFile, n int, lim Limits) (feat []float64, d int, err error) {
	i := 0 // 0-based node of the current line
	rowOf := r.rowOf()
	lines, err := r.eachLine(f, func(line int, text string) error {
		if i == n {
			return errMoreLines("attribute lines", n)
		}
		k := strings.Count(text, ",") + 1
		if d == 0 {
			// The width is known only now; check the limit before allocating n×d floats.
			if err := r.checkDense(k, lim); err != nil {
				return err
			}
			d = k
			feat = make([]float64, r.rows()*d)
		} else if k != d {
			return fmt.Errorf("%d attributes, but line 1 has %d", k, d)
		}
		var row []float64
		if j := rowOf(i); j >= 0 {
			row = feat[j*d : (j+1)*d]
		}
		for j := 0; j < d; j++ {
			field := text
			if c := strings.IndexByte(text, ','); c >= 0 {
				field, text = text[:c], text[c+1:]
			}
			field = strings.TrimSpace(field)
			v, err := strconv.ParseFloat(field, 64)
			if err != nil {
				return fmt.Errorf("attribute %d (%q) is not a number", j+1, field)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("attribute %d is %v, want a finite number", j+1, v)
			}
			if math.Abs(v) > MaxValue {
				return fmt.Errorf("attribute %d is %s", j+1, tooLargeValue(v))
			}
			if row != nil {
				row[j] = v
			}
		}
		i++
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if lines < n {
		return nil, 0, tuLineError(f, lines+1, "missing: %d attribute lines for the %d nodes of the graph indicator", lines, n)
	}
	return feat, d, nil
}
