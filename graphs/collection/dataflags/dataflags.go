// Package dataflags holds the command-line flags that choose and prepare a graph collection —
// --dataset, --tu, --graphs, --features, --standardize, --subset, --max-nodes, --max-memory —
// shared by every data-taking command of gwf and by the notebooks, so both take the same data
// the same way (the loading itself is graphs/collection's).
package dataflags

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// Flags are the flags that choose a graph collection — a bundled dataset, a TU folder or
// .zip, or a folder of graph files — and how to prepare it: node features, size limits, an
// optional subset. The same flags serve every command that reads data; the loading itself is
// graphs/collection's.
type Flags struct {
	Dataset  string
	TU       string
	Graphs   string
	Features string
	// FeaturesGiven says that --features was given (its parsing sets it; a program that sets
	// Features itself sets it too): LoadAutoFeatures reads the data's own features where it
	// is false.
	FeaturesGiven bool
	LimitFlags
	Standardize bool
	Subset      int
	SubsetSeed  uint64
	// Structure is --structure: a graphs.ParseStructure name, or "auto" where
	// AllowAutoStructure allowed it (the command chooses; the data are read as adjacency).
	Structure string
	// EdgeLabels is --edge-labels, where RegisterEdgeLabels added it: read edge labels.
	EdgeLabels bool
	// PartialLabels, set by a command (not a flag), is what becomes of a folder where only
	// some graphs have a class label (collection.Spec.PartialLabels).
	PartialLabels graphs.PartialLabels

	autoStructure bool

	// encoding, set by UseEncoding, is a model's feature encoding to read the data with.
	encoding *graphs.FeatureEncoding
}

// Register adds all the flags to fs.
func (d *Flags) Register(fs *pflag.FlagSet) {
	d.RegisterSources(fs)
	d.Features = "none"
	fs.Var(featuresValue{d}, "features", "node features: none (structure only, the paper's setting), labels (one-hot node labels: TU node labels, or the string node attributes of a folder's node-link, GraphML, GML and GEXF files), attributes (numeric), both (the attributes, then the one-hot labels), or degrees (one-hot node degrees, 16 columns, the last for 15 and more: features for graphs that have none, such as social networks)")
	fs.BoolVar(&d.Standardize, "standardize", false, "rescale each node-feature dimension to mean 0 and std 1 over the data read (recommended with --features attributes: raw attributes such as PROTEINS_full's reach 400 and drown the structure term)")
	d.LimitFlags.Register(fs, "refuse datasets that need more GiB than this as stored (sparse adjacency, features; counting the --subset kept), or a graph whose dense matrices do")
	fs.IntVar(&d.Subset, "subset", 0, "use only N graphs, the first N after a shuffle seeded by --subset-seed, kept in file order (0: all); chosen before reading, so only they count for --max-memory")
	fs.Uint64Var(&d.SubsetSeed, "subset-seed", 1, "seed of the --subset shuffle")
	fs.StringVar(&d.Structure, "structure", "adjacency", "the matrix graphs are compared by: adjacency (the paper's) or shortest-path (sp: shortest-path lengths, FGW's and GDL's choice for molecules); a model keeps it, and the graphs it embeds or predicts get the same")
}

// featuresValue is --features: Features, and FeaturesGiven set once it is parsed.
type featuresValue struct{ d *Flags }

func (v featuresValue) String() string { return v.d.Features }
func (v featuresValue) Type() string   { return "string" }

func (v featuresValue) Set(s string) error {
	v.d.Features, v.d.FeaturesGiven = s, true
	return nil
}

// RegisterEdgeLabels adds --edge-labels (default value), for a command whose models can
// compare edge labels: they are read where the files have them (collection.Spec.EdgeLabels).
func (d *Flags) RegisterEdgeLabels(fs *pflag.FlagSet, value bool, usage string) {
	fs.BoolVar(&d.EdgeLabels, "edge-labels", value, usage)
}

// AllowAutoStructure makes --structure accept and default to "auto", a choice the command
// makes (the data are read with their adjacency), with usage as its help. Call it after
// Register.
func (d *Flags) AllowAutoStructure(fs *pflag.FlagSet, usage string) {
	d.autoStructure, d.Structure = true, "auto"
	f := fs.Lookup("structure")
	f.DefValue, f.Usage = "auto", usage
}

// StructureChoice is --structure parsed, or Adjacency and auto = true for "auto"
// (AllowAutoStructure). Check must have passed.
func (d *Flags) StructureChoice() (s graphs.Structure, auto bool) {
	if d.Structure == "auto" && d.autoStructure {
		return graphs.Adjacency, true
	}
	s, _ = graphs.ParseStructure(d.Structure) // checked
	return s, false
}

// String renders the flags that choose the data, as a command line would give them.
func (d *Flags) String() string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"dataset", d.Dataset}, {"tu", d.TU}, {"graphs", d.Graphs}} {
		if f.v != "" {
			parts = append(parts, fmt.Sprintf("--%s %s", f.name, f.v))
		}
	}
	if d.Features != "" && d.Features != "none" {
		parts = append(parts, "--features "+d.Features)
	}
	if d.Standardize {
		parts = append(parts, "--standardize")
	}
	if d.Subset > 0 {
		parts = append(parts, fmt.Sprintf("--subset %d --subset-seed %d", d.Subset, d.SubsetSeed))
	}
	if s, auto := d.StructureChoice(); !auto && s == graphs.ShortestPath {
		parts = append(parts, "--structure "+string(s))
	}
	return strings.Join(parts, " ")
}

// RegisterSources adds only --dataset, --tu and --graphs to fs: for programs (the notebooks)
// that prepare the data their own way but take it from the same places.
func (d *Flags) RegisterSources(fs *pflag.FlagSet) {
	fs.StringVar(&d.Dataset, "dataset", "", "bundled dataset to use (see 'gwf datasets'; case-insensitive)")
	fs.StringVar(&d.TU, "tu", "", "dataset in TU format: a folder (NAME_A.txt[.gz], NAME_graph_indicator.txt[.gz], ...; graph labels optional) or the .zip the TU site distributes")
	fs.StringVar(&d.Graphs, "graphs", "", "folder of graph files, one graph a file (or a JSON list of graphs, a graph6 file of several lines: graphs FILE#0, FILE#1, ...; such a file may also be given alone): .json (the JSON of 'gwf gw', or networkx node-link or adjacency JSON), .graphml, .gml, .gexf, edge lists (.txt, .edges, .edgelist, .el; node ids are names; networkx's default \"0 1 {}\" lines too), adjacency lists (.adjlist), graph6 (.g6) and adjacency matrices (.npy, .npz); classes from a labels.csv of \"file,label\" rows, from one subfolder per class, or from the files; optional nodes.csv of \"file,nodes\" rows (node counts of edge lists numbered 0..N−1)")
}

// Given reports whether any of --dataset, --tu and --graphs was given.
func (d *Flags) Given() bool { return d.Dataset != "" || d.TU != "" || d.Graphs != "" }

// Check validates the flags without reading anything; its errors are the user's (usage) errors.
func (d *Flags) Check() error {
	given := 0
	for _, v := range []string{d.Dataset, d.TU, d.Graphs} {
		if v != "" {
			given++
		}
	}
	switch {
	case given == 0:
		return fmt.Errorf("give the data with --dataset NAME, --tu DIR|FILE.zip or --graphs DIR")
	case given > 1:
		return fmt.Errorf("give only one of --dataset, --tu and --graphs")
	case d.Subset < 0:
		return fmt.Errorf("--subset = %d must not be negative", d.Subset)
	}
	if err := d.LimitFlags.Check(); err != nil {
		return err
	}
	_, err := graphs.ParseFeatureKind(d.Features)
	if err != nil {
		return fmt.Errorf("--features: %w", err)
	}
	if d.Structure == "" {
		d.Structure = "adjacency" // Flags built without Register
	}
	if !(d.Structure == "auto" && d.autoStructure) {
		if _, err := graphs.ParseStructure(d.Structure); err != nil {
			return fmt.Errorf("--structure: %w", err)
		}
	}
	if d.Dataset != "" && !IsBundled(d.Dataset) {
		return fmt.Errorf("unknown dataset %q (bundled: %s; use --tu or --graphs for your own data)", d.Dataset, strings.Join(datasets.Names(), ", "))
	}
	return nil
}

// IsBundled reports whether name is a bundled dataset, ignoring case.
func IsBundled(name string) bool {
	for _, n := range datasets.Names() {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// Spec is the collection the flags describe; Check must have passed.
func (d *Flags) Spec() collection.Spec {
	kind, _ := graphs.ParseFeatureKind(d.Features) // checked
	return collection.Spec{
		Dataset: d.Dataset, TU: d.TU, Folder: d.Graphs,
		Features: kind, Standardize: d.Standardize, EdgeLabels: d.EdgeLabels,
		Subset: d.Subset, SubsetSeed: d.SubsetSeed,
		Limits: d.Limits(), Encoding: d.encoding, Structure: d.loadStructure(),
		PartialLabels: d.PartialLabels,
	}
}

// loadStructure is the structure the data are read with: "" for the adjacency.
func (d *Flags) loadStructure() graphs.Structure {
	if s, _ := d.StructureChoice(); s == graphs.ShortestPath {
		return s
	}
	return ""
}

// UseEncoding makes the flags read node features as a model's training data were read (e, the
// model's graphs.FeatureEncoding; nil changes nothing): the model's kind when --features was
// left at none, the model's one-hot node-label values and its standardization (whether or not
// --standardize was given), and the model's structure when --structure was left at adjacency.
// It reports whether it changed --features, --standardize or --structure, and refuses flags
// that contradict the model: other features, --standardize for a model whose features were not
// standardized, or shortest paths for a model of adjacencies. Call it after Check.
func (d *Flags) UseEncoding(e *graphs.FeatureEncoding) (changed bool, err error) {
	if e == nil {
		return false, nil
	}
	kind, _ := graphs.ParseFeatureKind(d.Features) // checked
	switch {
	case e.Kind.HasLabels() && d.Graphs != "" && e.NodeLabelNames == nil:
		return false, fmt.Errorf("the model was trained on one-hot TU node labels (--features %s), which a --graphs folder does not have: give the graphs as TU data (--tu)", e.Kind)
	case e.Kind.HasLabels() && d.Graphs == "" && e.NodeLabelNames != nil:
		return false, fmt.Errorf("the model was trained on a folder's string node attributes (--features %s), which TU data do not have: give the graphs as a folder (--graphs)", e.Kind)
	case kind == graphs.FeaturesNone && e.Kind != kind:
		d.Features, changed = e.Kind.String(), true
	case kind != e.Kind:
		return false, fmt.Errorf("--features %s: the model was trained with --features %s", kind, e.Kind)
	}
	switch {
	case e.Standardized() && !d.Standardize:
		d.Standardize, changed = true, true
	case !e.Standardized() && d.Standardize:
		return false, errors.New("--standardize: the model was trained on node features that were not standardized")
	}
	model := e.Structure
	if model == "" {
		model = graphs.Adjacency
	}
	switch s, _ := d.StructureChoice(); {
	case s == model:
	case s == graphs.Adjacency:
		d.Structure, changed = string(model), true
	default:
		return false, fmt.Errorf("--structure %s: the model was trained with --structure %s", s, model)
	}
	d.encoding = e
	return changed, nil
}

// Load reads the collection, --subset applied (Check first). The result's Graphs are in the
// order used for training and output.
func (d *Flags) Load() (*graphs.Dataset, error) {
	ds, err := collection.Load(d.Spec())
	if err != nil {
		return nil, fmt.Errorf("load data: %w", err)
	}
	return ds, nil
}

// LoadAutoFeatures is Load, except that where --features was not given (FeaturesGiven is
// false) it reads the node features the data have, whatever Features and Standardize say
// (collection.Spec.AutoFeatures): Dataset.Encoding says which.
func (d *Flags) LoadAutoFeatures() (*graphs.Dataset, error) {
	s := d.Spec()
	if !d.FeaturesGiven {
		s.Features, s.Standardize, s.AutoFeatures = graphs.FeaturesNone, false, true
	}
	ds, err := collection.Load(s)
	if err != nil {
		return nil, fmt.Errorf("load data: %w", err)
	}
	return ds, nil
}
