package graphs

// A graph folder holds one graph per file, in any mix of the formats this package reads, or
// several in a graph6 or JSON file (folder_collections.go: graphs named FILE#0, FILE#1, ...):
//
//	*.json                               the JSON form of ReadJSON ({"adjacency": ...}) or
//	                                     networkx node-link JSON ({"nodes": ..., "links": ...}),
//	                                     or its adjacency JSON ({"nodes": ..., "adjacency": ...})
//	*.txt, *.edges, *.edgelist, *.el     edge lists, node ids read as names (NodeNames); networkx's
//	                                     default write_edgelist lines ("0 1 {'weight': 2}") too
//	*.adjlist                            adjacency lists (ReadAdjList: networkx's write_adjlist)
//	*.graphml                            GraphML (ReadGraphML: networkx, Gephi, igraph, yEd)
//	*.gml                                GML (ReadGML: networkx, Gephi, igraph)
//	*.gexf                               GEXF (ReadGEXF: Gephi, networkx's write_gexf)
//	*.g6                                 graph6 (ReadGraph6: nauty, networkx's write_graph6)
//	*.npy, *.npz                         an adjacency matrix (numpy.save)
//	any of the above but .npy/.npz       gzip-compressed, its name ending in .gz (g.graphml.gz,
//	with .gz appended                    as networkx writes where the path ends in .gz)
//	labels.csv                           optional: "file,label" lines giving each graph's class
//	                                     (FILE#i for the graphs of a collection file)
//	nodes.csv                            optional: "file,nodes" lines giving the node count of
//	                                     edge lists numbered 0..N−1, so that nodes in no edge
//	                                     (which write_edgelist drops) are kept, isolated
//
// Hidden files, README/LICENSE files and files that are never graphs (.py, .ipynb, .md,
// .png, …: notGraphExtensions) are ignored; any other file is an error, so that a graph
// in an unknown format is not silently left out. So is a named pipe or device, which a read
// could wait on forever, and a symbolic link out of the folder; neither is opened. A folder
// without graph files whose subfolders hold them is read as one subfolder per class
// (ring/g1.json, star/g2.json: the classes ring and star), as image datasets are often laid
// out; otherwise subfolders are ignored.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/internal/jsonread"
)

// FolderOptions controls ReadFolder. The zero value reads structure only, undirected edge
// lists, all files, under DefaultLimits.
type FolderOptions struct {
	// Features is FeaturesNone; FeaturesAttributes, the "features" of JSON files and the
	// numeric node attributes of node-link, GraphML, GML and GEXF files (every graph must
	// have features of one width, and attributes of the same names, matched by name);
	// FeaturesLabels, the string node attributes of node-link, GraphML, GML and GEXF files
	// one-hot encoded over the folder's values (categories.go:
	// an attribute with more than MaxCategories values is left out; a node without one has
	// no column set); or FeaturesBoth, the former followed by the latter.
	Features FeatureKind
	// NodeLabelNames, with FeaturesLabels or FeaturesBoth, are the one-hot columns to use (a model's
	// FeatureEncoding.NodeLabelNames) instead of the folder's values; a node whose value is
	// not among them has none set (counted in Dataset.UnknownNodeLabels).
	NodeLabelNames []string
	// Directed reads edge lists as directed (JSON, GraphML and GML files say it themselves).
	Directed bool
	// DegreeMu sets each graph's Mu to DegreeMu(C) instead of the uniform distribution (JSON
	// files that give "mu" keep theirs).
	DegreeMu bool
	// Limits bounds each graph and the memory of the whole read.
	Limits Limits
	// Select, when set, is called with the number of graph files and returns the 0-based
	// indices (in file-name order) of those to read, sorted and distinct.
	Select func(graphs int) []int
	// PartialLabels says what becomes of a folder where only some graphs have a class label
	// (labels.csv leaves the others out or gives them an empty label; or only some files
	// carry one): an error (the zero value, so that a forgotten label is not read as none),
	// the labels kept, or the labels dropped.
	PartialLabels PartialLabels
	// OmitPartialAttributes, with FeaturesAttributes or FeaturesBoth, leaves out of every
	// graph a numeric node attribute that some nodes of a graph lack, saying so in
	// Dataset.LeftOut, instead of refusing the folder. Where none is left, the error wraps
	// ErrNoAttributes, and LeftOutOf says what was left out. A graph without any attributes,
	// or with others than the rest, is refused all the same.
	OmitPartialAttributes bool
	// EdgeLabels keeps the graphs' edge labels (Graph.EdgeLabels: the edge attribute "label"
	// of node-link, GraphML, GML and GEXF files, "edge_labels" of JSON files) where every graph has
	// them; else they are dropped. Dataset.Encoding.EdgeLabels says which.
	EdgeLabels bool
	// AutoFeatures reads the node features the folder has, in place of Features (which must be
	// FeaturesNone) and with OmitPartialAttributes: both where it has numeric node attributes
	// and string ones, else the attributes, else the labels, else none. Dataset.Encoding.Kind
	// says which. The folder is read once; what the attributes left out where none was left is
	// said in Dataset.LeftOut all the same.
	AutoFeatures bool
}

// folderIgnored reports whether a file of a graph folder is not a graph: hidden files, the
// tables, README and LICENSE files, and files of kinds that are never graphs (the script or
// notebook that wrote the graphs, notes, plots) which people keep beside their data.
func folderIgnored(name string) bool {
	upper := strings.ToUpper(name)
	return strings.HasPrefix(name, ".") || name == folderLabels || name == folderNodes ||
		strings.HasPrefix(upper, "README") || strings.HasPrefix(upper, "LICENSE") ||
		slices.Contains(notGraphExtensions, strings.ToLower(filepath.Ext(name)))
}

// notGraphExtensions are the extensions of files that hold no graph.
var notGraphExtensions = []string{
	".py", ".ipynb", ".r", ".jl", ".m", ".sh", ".md", ".rst", ".pdf", ".html", ".png", ".jpg",
	".jpeg", ".svg", ".log", ".yaml", ".yml", ".toml",
}

// folderLabels and folderNodes are the names of the optional labels and node counts files of
// a graph folder.
const (
	folderLabels = "labels.csv"
	folderNodes  = "nodes.csv"
)

// folderFormat is the reader of a file, by extension: "json", "edges", "adjlist", "graphml",
// "gml", "gexf", "graph6", "matrix" or "" (unknown). A gzip-compressed file's is that of its
// name without .gz, except NumPy files' (numpy.savez_compressed compresses its own).
func folderFormat(name string) string {
	ext := strings.ToLower(filepath.Ext(withoutGz(name)))
	if gzipName(name) && (ext == ".npy" || ext == ".npz") {
		return ""
	}
	switch ext {
	case ".json":
		return "json"
	case ".txt", ".edges", ".edgelist", ".el":
		return "edges"
	case ".adjlist":
		return "adjlist"
	case ".graphml":
		return "graphml"
	case ".gml":
		return "gml"
	case ".gexf":
		return "gexf"
	case ".g6":
		return "graph6"
	case ".npy", ".npz":
		return "matrix"
	}
	return ""
}

// folderFormats names the formats for errors.
const folderFormats = ".json for JSON or node-link, .txt/.edges/.edgelist/.el for edge lists, .adjlist for adjacency lists, .graphml for GraphML, .gml for GML, .gexf for GEXF, .g6 for graph6, .npy/.npz for adjacency matrices; any but the last gzip-compressed, ending in .gz"

// ReadFolder reads every graph file of the folder dir (see the formats above), in file-name
// order, into a Dataset named after the folder. Graphs are named by their file names. Class
// labels come from the class subfolders (see above) when the graphs are in them, from
// labels.csv when it exists (every graph listed), else from the files ("label" of the JSON
// form, "graph" "label" of node-link, the graph attribute "label" of GraphML and GML, or
// graphLabelKeys: an integer or a text); either all graphs have one or none, unless
// opt.PartialLabels keeps or drops the labels of a folder labelled in part. Integer
// labels are mapped like TU labels (Dataset.Classes); where any label is a text, all are kept
// as text (Dataset.ClassNames). dir may also name one graph file, a collection say: it is
// read as a folder of that file alone, named after the file, its graphs labelled by their own
// labels.
func ReadFolder(dir string, opt FolderOptions) (*Dataset, error) {
	ds, err := readFolder(dir, opt)
	if err != nil {
		return nil, fmt.Errorf("graphs: read graph folder %s: %w", dir, err)
	}
	return ds, nil
}

func readFolder(dir string, opt FolderOptions) (*Dataset, error) {
	if opt.Features != FeaturesDegrees {
		return readFolderFiles(dir, opt)
	}
	if opt.AutoFeatures {
		return nil, fmt.Errorf("FolderOptions.AutoFeatures with features %q: it chooses them", opt.Features)
	}
	opt.Features = FeaturesNone
	ds, err := readFolderFiles(dir, opt)
	if err != nil {
		return nil, err
	}
	if err := withDegrees(ds, opt.Limits.OrDefault()); err != nil {
		return nil, err
	}
	return ds, nil
}

// readFolderFiles is readFolder for the features the files hold.
func readFolderFiles(dir string, opt FolderOptions) (*Dataset, error) {
	lim := opt.Limits.OrDefault()
	if opt.NodeLabelNames != nil && !opt.Features.HasLabels() {
		return nil, fmt.Errorf("FolderOptions.NodeLabelNames with features %q: they are the columns of labels", opt.Features)
	}
	if opt.AutoFeatures {
		if opt.Features != FeaturesNone {
			return nil, fmt.Errorf("FolderOptions.AutoFeatures with features %q: it chooses them", opt.Features)
		}
		// Everything the files have is read, for autoFeatures to choose from.
		opt.Features, opt.OmitPartialAttributes = FeaturesBoth, true
	}
	dsName := filepath.Base(filepath.Clean(dir))
	var files, subdirs []string
	hasLabels, hasNodes := false, false
	var err error
	if fi, serr := os.Stat(dir); serr == nil && !fi.IsDir() {
		// One file given for a folder: the folder of that file alone (a collection, say).
		if !fi.Mode().IsRegular() { // a named pipe would block the read
			return nil, notRegular(dir, fi.Mode().Type())
		}
		if err := checkGraphFileName(filepath.Dir(dir), dsName); err != nil {
			return nil, err
		}
		files, dir = []string{dsName}, filepath.Dir(dir)
		dsName = withoutGz(dsName)
		dsName = strings.TrimSuffix(dsName, filepath.Ext(dsName))
	} else if files, subdirs, hasLabels, hasNodes, err = listFolder(dir); err != nil {
		return nil, err
	}
	inClassFolders := len(files) == 0 && len(subdirs) > 0
	if inClassFolders {
		if files, err = classFolders(dir, subdirs); err != nil {
			return nil, err
		}
		if hasLabels {
			return nil, fmt.Errorf("%s and class subfolders: give the classes one way (the subfolders, or %s beside the files in one folder)", folderLabels, folderLabels)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no graph files there (%s), nor subfolders of them, one per class", folderFormats)
	}
	coll, err := readCollections(dir, files, lim)
	if err != nil {
		return nil, err
	}
	files = coll.expand(files)
	keep := files
	if opt.Select != nil {
		idx := opt.Select(len(files))
		keep = make([]string, len(idx))
		for k, i := range idx {
			if i < 0 || i >= len(files) || (k > 0 && i <= idx[k-1]) {
				return nil, fmt.Errorf("FolderOptions.Select returned %d at position %d: want sorted, distinct indices in 0..%d", i, k, len(files)-1)
			}
			keep[k] = files[i]
		}
	}
	var counts map[string]int
	if hasNodes {
		if counts, err = readNodeCounts(filepath.Join(dir, folderNodes), files, lim); err != nil {
			return nil, err
		}
	}
	ds := &Dataset{Name: dsName, Encoding: FeatureEncoding{Kind: opt.Features}}
	read := func(name string) (*Graph, error) {
		p := filepath.Join(dir, name)
		g, inColl, err := coll.read(dir, name, opt, lim)
		switch n, counted := counts[name]; {
		case inColl: // read from its collection file
		case counted:
			g, err = ReadFile(p, FileOptions{Format: "edges", Limits: lim,
				EdgeList: EdgeListOptions{IDs: ZeroBased, Nodes: n, Directed: opt.Directed}})
			if err != nil {
				err = fmt.Errorf("%w (%s gives it %d nodes: its ids must be 0..%d)", err, folderNodes, n, n-1)
			}
		default:
			g, err = readGraphFile(p, opt, lim)
		}
		if err != nil {
			return nil, err
		}
		g.Name = name
		return g, nil
	}
	// Omitting attributes that some nodes lack needs all graphs read; else each is checked as
	// it is read.
	omitting := opt.Features.HasAttributes() && opt.OmitPartialAttributes
	// total is what the graphs read hold; bare, what they would without their attributes.
	var total, bare int64
	for k, name := range keep {
		p := filepath.Join(dir, name)
		g, err := read(name)
		if err != nil {
			return nil, err
		}
		if opt.Features.HasAttributes() && !omitting {
			noneFirst := func() error { return noAttributes(dir, name, opt.Features, keep[k+1:], read) }
			if err := checkAttributes(p, g, ds.Graphs, noneFirst); err != nil {
				return nil, err
			}
		} else if !opt.Features.HasAttributes() {
			g.F, g.attrColumns = nil, nil
		}
		if !opt.Features.HasLabels() {
			g.categories = nil
		}
		if opt.DegreeMu {
			g.Mu = DegreeMu(g.A)
		}
		total += g.Bytes()
		bare += g.Bytes()
		if g.F != nil {
			r, c := g.F.Dims()
			bare -= 8 * int64(r) * int64(c)
		}
		if total > lim.MaxDenseBytes {
			return nil, fmt.Errorf("%s: the graphs read so far need %s, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
				p, tuBytes(total), tuBytes(lim.MaxDenseBytes))
		}
		ds.Graphs = append(ds.Graphs, g)
	}
	if err := ds.makeFeatures(dir, opt, lim.MaxDenseBytes-total, lim.MaxDenseBytes-bare); err != nil {
		return nil, err
	}
	switch {
	case inClassFolders:
		err = ds.labelFromFolders()
	case hasLabels:
		err = ds.labelFromCSV(filepath.Join(dir, folderLabels), files, opt.PartialLabels != PartialLabelsRefused)
	default:
		err = ds.labelFromFiles(opt.PartialLabels != PartialLabelsRefused)
	}
	if err != nil {
		return nil, err
	}
	if opt.PartialLabels == PartialLabelsDropped {
		ds.dropPartialLabels()
	}
	return ds, nil
}

// makeFeatures makes the node features of the graphs of ds, read from dir with opt: room and
// bare are the memory left with the graphs as read and without their attributes.
func (ds *Dataset) makeFeatures(dir string, opt FolderOptions, room, bare int64) error {
	if opt.AutoFeatures {
		return ds.autoFeatures(dir, opt.EdgeLabels, room, bare)
	}
	if opt.Features.HasAttributes() && opt.OmitPartialAttributes {
		if err := ds.omitPartialAttributes(dir, opt.Features); err != nil {
			return err
		}
	}
	ds.keepEdgeLabels(opt.EdgeLabels)
	if opt.Features.HasLabels() {
		if err := ds.encodeCategories(opt.NodeLabelNames, room); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
	}
	return nil
}

// partialAttributes is the error of a folder where the graph at path has no numeric node
// attributes and the graph named with has dim of them.
func partialAttributes(path, with string, dim int) error {
	return fmt.Errorf("%s: no numeric node attributes, while %s has %d: node attributes are used where every graph has them, of one width (give them to every graph, or leave them out with --features labels or none)", path, with, dim)
}

// noAttributes is the error of a folder whose first graph, first, has no node attributes
// although features asked for them: an ErrNoAttributes where no graph of rest has any either
// (the folder has none, and a caller may read it without), else an error that names one that
// has, whatever the files' order. Formats without node attributes are not read again.
func noAttributes(dir, first string, features FeatureKind, rest []string, read func(string) (*Graph, error)) error {
	for _, name := range rest {
		switch folderFormat(name) {
		case "edges", "adjlist", "graph6", "matrix":
			continue
		}
		g, err := read(name)
		if err != nil {
			return err
		}
		if g.F != nil {
			return partialAttributes(filepath.Join(dir, first), name, g.Dim())
		}
	}
	return fmt.Errorf("%w: features %q asked for, but no graph has them, %s first (edge lists have none; JSON files need \"features\", node-link, GraphML, GML and GEXF files numeric node attributes)", ErrNoAttributes, features, filepath.Join(dir, first))
}

// listFolder lists the graph files and subfolders of dir, sorted by name, and says whether it
// has labels.csv and nodes.csv. A file in no format of a folder is an error, and so is one
// it reads that is no regular file or links out of the folder (checkFolderEntry).
func listFolder(dir string) (files, subdirs []string, hasLabels, hasNodes bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, false, false, err
	}
	for _, e := range entries { // sorted by name
		name := e.Name()
		table := name == folderLabels || name == folderNodes
		hasLabels = hasLabels || name == folderLabels
		hasNodes = hasNodes || name == folderNodes
		if e.IsDir() && !folderIgnored(name) {
			subdirs = append(subdirs, name)
			continue
		}
		if folderIgnored(name) && !table { // never opened
			continue
		}
		if err := checkFolderEntry(dir, filepath.Join(dir, name), e.Type()); err != nil {
			return nil, nil, false, false, err
		}
		if table {
			continue
		}
		if err := checkGraphFileName(dir, name); err != nil {
			return nil, nil, false, false, err
		}
		files = append(files, name)
	}
	return files, subdirs, hasLabels, hasNodes, nil
}

// readGraphFile reads one graph file of a folder.
func readGraphFile(p string, opt FolderOptions, lim Limits) (*Graph, error) {
	return ReadFile(p, FileOptions{Features: opt.Features, Limits: lim, OmitPartialAttributes: opt.OmitPartialAttributes,
		EdgeList: EdgeListOptions{IDs: NodeNames, Directed: opt.Directed}})
}

// FileOptions configure ReadFile.
type FileOptions struct {
	// Format names the reader: "json" (gwf's JSON form or networkx node-link, told apart by
	// their fields), "edges" (or "edgelist"), "adjlist", "graphml", "gml", "gexf", "graph6"
	// or "matrix" (.npy, .npz). "" chooses by the file's extension, as ReadFolder does
	// (FileFormat).
	Format string
	// Features is what node features to read, as FolderOptions.Features says (one graph's
	// categories are its own: use ReadFolder to one-hot encode a collection alike).
	Features FeatureKind
	// EdgeList configures edge lists (adjacency lists, which name their nodes, take only
	// Directed); its Limits are replaced by Limits.
	EdgeList EdgeListOptions
	// Limits bound the graph; the zero value means DefaultLimits.
	Limits Limits
	// OmitPartialAttributes leaves out a numeric node attribute that some nodes lack instead
	// of refusing the graph (NodeLinkOptions.OmitPartialAttributes).
	OmitPartialAttributes bool
}

// FileFormat is the reader ReadFile chooses for a file by its extension (FileOptions.Format's
// names), or "" for an extension it does not know.
func FileFormat(path string) string { return folderFormat(path) }

// CheckFormat refuses a FileOptions.Format that ReadFile does not know ("" chooses by the
// extension, and passes).
func CheckFormat(format string) error {
	switch strings.ToLower(format) {
	case "", "json", "edges", "edgelist", "adjlist", "graphml", "gml", "gexf", "graph6", "matrix":
		return nil
	}
	return fmt.Errorf("graphs: unknown graph format %q (want json, graphml, gml, gexf, edgelist, adjlist, graph6 or matrix)", format)
}

// ReadFile reads one graph file in the format opt.Format names (by default, by the file's
// extension). A file whose name ends in .gz is read gzip-decompressed (g.graphml.gz, as
// networkx writes it), except an adjacency matrix. The graph is named p; errors name the file.
func ReadFile(p string, opt FileOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	format := strings.ToLower(opt.Format)
	if format == "" {
		if format = folderFormat(p); format == "" {
			return nil, unknownFormat(p)
		}
	}
	if err := CheckFormat(format); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if format == "matrix" {
		if gzipName(p) {
			return nil, unknownFormat(p)
		}
		return readMatrixFile(p, lim)
	}
	f, err := openGraphFile(p, formatTextBound(format, lim))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readGraph(f, p, format, opt)
}

// formatTextBound bounds the text of a file in format: its reader's own bound, which also
// bounds a compressed file's content.
func formatTextBound(format string, lim Limits) textBound {
	if format == "json" {
		return jsonTextBound(lim)
	}
	return markupTextBound(lim) // edge lists and graph6 stream: the bound is on time
}

// readGraph reads one graph from r in format (any but "matrix"), naming it p, within
// opt.Limits (a JSON file: jsonTextBound).
func readGraph(r io.Reader, p, format string, opt FileOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	attrs := NodeLinkOptions{Attributes: opt.Features.HasAttributes(), Categories: opt.Features.HasLabels(), Limits: lim,
		OmitPartialAttributes: opt.OmitPartialAttributes}
	el := opt.EdgeList
	el.Limits = lim
	switch format {
	case "edges", "edgelist":
		return ReadEdgeList(r, p, el)
	case "adjlist": // names its nodes: IDs and Nodes do not apply
		return ReadAdjList(r, p, EdgeListOptions{Directed: el.Directed, Limits: lim})
	case "graph6":
		return ReadGraph6(r, p, lim)
	case "graphml":
		return ReadGraphML(r, p, attrs)
	case "gml":
		return ReadGML(r, p, attrs)
	case "gexf":
		return ReadGEXF(r, p, attrs)
	}
	bound := jsonTextBound(lim)
	b, err := jsonread.Object(r, bound.bytes)
	switch {
	case errors.Is(err, jsonread.ErrTooLarge):
		return nil, bound.tooLarge(p, lim)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return readJSONGraph(b, p, attrs, lim)
}

// readJSONGraph reads a JSON graph held in b, in place: node-link (it has "nodes") or gwf's
// JSON form.
func readJSONGraph(b []byte, label string, attrs NodeLinkOptions, lim Limits) (*Graph, error) {
	keys, err := jsonKeys(b, label)
	if err != nil {
		return nil, err
	}
	if _, ok := keys["nodes"]; ok {
		return readNodeLinkText(b, label, label, attrs)
	}
	return readJSONForm(b, keys, label, label, lim)
}

// labelFromFiles maps the labels the files gave to class indices: all graphs have one, or
// none does, or (partly) any may have none.
func (ds *Dataset) labelFromFiles(partly bool) error {
	var with, without *Graph
	text := make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		switch {
		case g.labelText != "":
			text[i] = g.labelText
		case g.HasLabel:
			text[i] = strconv.Itoa(g.Label)
		}
		if text[i] != "" {
			with = g
		} else {
			without = g
		}
	}
	switch {
	case with == nil:
		for _, g := range ds.Graphs {
			g.Label = 0
		}
		return nil
	case without != nil && !partly:
		return fmt.Errorf("%s has a class label and %s none: label every graph, or give them all in %s", with.Name, without.Name, folderLabels)
	}
	return ds.setTextLabels(text) // an integer among texts is a text too
}

// setIntLabels sets Classes to the sorted distinct raw labels of the graphs that have one
// (labelled) and each such graph's Label to the index of its own.
func (ds *Dataset) setIntLabels(raw []int, labelled []bool) {
	var present []int
	for i, l := range raw {
		if labelled[i] {
			present = append(present, l)
		}
	}
	ds.Classes = slices.Compact(slices.Sorted(slices.Values(present)))
	for i, g := range ds.Graphs {
		g.Label, g.HasLabel = 0, labelled[i]
		if labelled[i] {
			g.Label, _ = slices.BinarySearch(ds.Classes, raw[i])
		}
	}
}

// labelFromCSV reads "file,label" rows (an optional header "file,label" first) and labels
// every graph read (partly: those it gives a label, not empty). files are all graph files of
// the folder: a row may name one that a subset left out, but not one that does not exist.
func (ds *Dataset) labelFromCSV(p string, files []string, partly bool) error {
	byFile := map[string]string{}
	err := readFileTable(p, "label", files, func(line int, file, label string) error {
		if _, dup := byFile[file]; dup {
			return fmt.Errorf("%s:%d: %q is labelled twice", p, line, file)
		}
		if label == "" && !partly {
			return fmt.Errorf("%s:%d: empty label for %q", p, line, file)
		}
		byFile[file] = label
		return nil
	})
	if err != nil {
		return err
	}
	text := make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		label, ok := byFile[g.Name]
		if !ok && !partly {
			return fmt.Errorf("%s: no label for %s (every graph needs one)", p, g.Name)
		}
		text[i] = label
	}
	if err := ds.setTextLabels(text); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// labelFromFolders labels each graph with its class folder, the folder of its name
// ("ring/g1.json").
func (ds *Dataset) labelFromFolders() error {
	text := make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		text[i], _, _ = strings.Cut(g.Name, "/")
	}
	if err := ds.setTextLabels(text); err != nil {
		return fmt.Errorf("class folders: %w", err)
	}
	return nil
}

// setTextLabels gives graph i the class text[i] ("": none): integer labels are mapped like
// TU labels (Dataset.Classes), others kept as text (Dataset.ClassNames). Labels that are one
// number written differently are an error (sameNumberLabels).
func (ds *Dataset) setTextLabels(text []string) error {
	if err := sameNumberLabels(ds.Graphs, text); err != nil {
		return err
	}
	allInts := true
	raw := make([]int, len(text))
	labelled := make([]bool, len(text))
	var present []string
	for i, label := range text {
		if label == "" {
			continue
		}
		v, err := strconv.Atoi(label)
		allInts = allInts && err == nil
		raw[i], labelled[i] = v, true
		present = append(present, label)
	}
	if allInts {
		ds.setIntLabels(raw, labelled)
		return nil
	}
	ds.ClassNames = slices.Compact(slices.Sorted(slices.Values(present)))
	for i, g := range ds.Graphs {
		g.Label, g.HasLabel = 0, labelled[i]
		if labelled[i] {
			g.Label, _ = slices.BinarySearch(ds.ClassNames, text[i])
		}
	}
	return nil
}

// sameNumberLabels refuses class labels that are distinct texts of one number ("1", "1.0",
// "01"): kept as texts they would become as many classes, without a word, of what was meant
// as one. The error names the first graph of each label; text[i] is graph i's ("": none).
func sameNumberLabels(graphs []*Graph, text []string) error {
	first := map[string]int{}           // each label's first graph
	spellings := map[float64][]string{} // the labels of each number, in order of appearance
	var numbers []float64
	for i, label := range text {
		if _, seen := first[label]; seen || label == "" {
			continue
		}
		first[label] = i
		v, err := strconv.ParseFloat(label, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) { // texts, "inf" and "NaN" among them
			continue
		}
		if spellings[v] == nil { // -0 and 0 are one key
			numbers = append(numbers, v)
		}
		spellings[v] = append(spellings[v], label)
	}
	for _, v := range numbers {
		labels := spellings[v]
		if len(labels) < 2 {
			continue
		}
		named := make([]string, len(labels))
		for k, l := range labels {
			named[k] = fmt.Sprintf("%q (%s)", l, graphs[first[l]].Name)
		}
		list := strings.Join(named[:len(named)-1], ", ") + " and " + named[len(named)-1]
		return fmt.Errorf("labels %s are the same number written differently; write each class one way", list)
	}
	return nil
}

// checkGraphFileName refuses a file of the folder dir that is not a graph file: one of an
// unknown format, and one named like a table of labels (labels.txt, classes.tsv), which an
// edge-list extension would otherwise read as a graph of file and class names.
func checkGraphFileName(dir, name string) error {
	p := filepath.Join(dir, name)
	stem := strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
	switch {
	case stem == "labels" || stem == "classes" || stem == "graph_labels" || stem == "nodes":
		return fmt.Errorf("%s: not read as a graph: class labels go in %s (\"file,label\" rows) and node counts in %s (\"file,nodes\")", p, folderLabels, folderNodes)
	case folderFormat(name) == "":
		return unknownFormat(p)
	}
	return nil
}

// unknownFormat is the error of the file at path, of no format a reader knows: the formats, and
// for a file a Python program saved in a form only Python reads, or a compressed one, what to
// do instead.
func unknownFormat(path string) error {
	hint := ""
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pkl", ".pickle", ".gpickle", ".pt", ".pth", ".joblib":
		hint = `: a Python pickle or torch file can only be read by Python; write each graph as node-link JSON, json.dump(networkx.node_link_data(g), f) (PyTorch Geometric: torch_geometric.utils.to_networkx first)`
	case ".gz", ".bz2", ".xz", ".zip", ".tar", ".tgz":
		hint = ": decompress it first (a TU dataset's .zip goes to --tu)"
		if gzipName(path) && folderFormat(withoutGz(path)) == "matrix" {
			hint = ": decompress it first, or save it with numpy.savez_compressed (.npz)"
		}
	}
	return fmt.Errorf("%s: unknown graph format (want %s)%s", path, folderFormats, hint)
}

// classFolders lists the graph files of the subfolders of dir, one folder per class: their
// paths relative to dir ("ring/g1.json"), sorted. A subfolder's own subfolders and its
// non-graph files (README, labels.csv, dot-files) are not read; a file of an unknown format
// is an error.
func classFolders(dir string, subdirs []string) ([]string, error) {
	var files []string
	for _, sub := range subdirs {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || folderIgnored(name) {
				continue
			}
			if err := checkFolderEntry(dir, filepath.Join(dir, sub, name), e.Type()); err != nil {
				return nil, err
			}
			if err := checkGraphFileName(filepath.Join(dir, sub), name); err != nil {
				return nil, err
			}
			files = append(files, sub+"/"+name)
		}
	}
	return files, nil
}
