package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

// dataFlags are the flags that choose a graph collection — a bundled dataset, a TU folder or
// .zip, or a folder of graph files — and how to prepare it: node features, size limits, an
// optional subset. The same flags serve every command that reads data; the loading itself is
// graphs/collection's.
type dataFlags struct {
	dataset     string
	tuDir       string
	graphsDir   string
	features    string
	maxNodes    int
	maxMemory   float64 // GiB of dense matrices
	standardize bool
	subset      int
	subsetSeed  uint64
}

func (d *dataFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.dataset, "dataset", "", "bundled dataset to use (see 'gwf datasets'; case-insensitive)")
	fs.StringVar(&d.tuDir, "tu", "", "dataset in TU format: a folder (NAME_A.txt[.gz], NAME_graph_indicator.txt[.gz], ...; graph labels optional) or the .zip the TU site distributes")
	fs.StringVar(&d.graphsDir, "graphs", "", "folder of graph files, one graph a file: .json (the JSON of 'gwf gw' or networkx node-link JSON) and edge lists (.txt, .edges, .edgelist, .el; node ids are names); optional labels.csv of \"file,label\" rows")
	fs.StringVar(&d.features, "features", "none", "node features: none (structure only, the paper's setting), labels (one-hot node labels; TU data) or attributes")
	fs.IntVar(&d.maxNodes, "max-nodes", graphs.DefaultLimits.MaxNodes, "refuse graphs with more nodes than this")
	fs.BoolVar(&d.standardize, "standardize", false, "rescale each node-feature dimension to mean 0 and std 1 over the data read (recommended with --features attributes: raw attributes such as PROTEINS_full's reach 400 and drown the structure term)")
	fs.Float64Var(&d.maxMemory, "max-memory", float64(graphs.DefaultLimits.MaxDenseBytes)/(1<<30), "refuse datasets whose dense adjacency and feature matrices need more GiB than this (counting the --subset kept)")
	fs.IntVar(&d.subset, "subset", 0, "use only N graphs, the first N after a shuffle seeded by --subset-seed, kept in file order (0: all); chosen before reading, so only they count for --max-memory")
	fs.Uint64Var(&d.subsetSeed, "subset-seed", 1, "seed of the --subset shuffle")
}

// check validates the flags without reading anything; its errors are usage errors.
func (d *dataFlags) check() error {
	given := 0
	for _, v := range []string{d.dataset, d.tuDir, d.graphsDir} {
		if v != "" {
			given++
		}
	}
	switch {
	case given == 0:
		return usagef("give the data with --dataset NAME, --tu DIR|FILE.zip or --graphs DIR")
	case given > 1:
		return usagef("give only one of --dataset, --tu and --graphs")
	case d.maxNodes < 1:
		return usagef("--max-nodes = %d must be at least 1", d.maxNodes)
	case !(d.maxMemory > 0) || d.maxMemory > 1<<20:
		return usagef("--max-memory = %v GiB must be positive (and at most 2^20)", d.maxMemory)
	case d.subset < 0:
		return usagef("--subset = %d must not be negative", d.subset)
	}
	kind, err := graphs.ParseFeatureKind(d.features)
	if err != nil {
		return usagef("--features: %w", err)
	}
	if d.dataset != "" && !isBundled(d.dataset) {
		return usagef("unknown dataset %q (bundled: %s; use --tu or --graphs for your own data)", d.dataset, strings.Join(datasets.Names(), ", "))
	}
	if d.graphsDir != "" && kind == graphs.FeaturesLabels {
		return usagef("--features labels is for TU data; with --graphs use attributes (JSON \"features\", numeric node-link attributes) or none")
	}
	return nil
}

// limits are the reader limits of the flags. The byte count is rounded up, so that any
// positive --max-memory is a limit of at least one byte (zero would mean the default).
func (d *dataFlags) limits() graphs.Limits {
	return graphs.Limits{MaxNodes: d.maxNodes, MaxDenseBytes: graphs.BytesOfGiB(d.maxMemory)}
}

// isBundled reports whether name is a bundled dataset, ignoring case.
func isBundled(name string) bool {
	for _, n := range datasets.Names() {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// spec is the collection the flags describe; check must have passed.
func (d *dataFlags) spec() collection.Spec {
	kind, _ := graphs.ParseFeatureKind(d.features) // checked
	return collection.Spec{
		Dataset: d.dataset, TU: d.tuDir, Folder: d.graphsDir,
		Features: kind, Standardize: d.standardize,
		Subset: d.subset, SubsetSeed: d.subsetSeed,
		Limits: d.limits(),
	}
}

// load reads the collection, --subset applied. The result's Graphs are in the order used for
// training and output.
func (d *dataFlags) load() (*graphs.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	ds, err := collection.Load(d.spec())
	if err != nil {
		return nil, fmt.Errorf("load data: %w", err)
	}
	return ds, nil
}

// featureHint explains a feature-dimension mismatch between a model and the data.
func featureHint(modelDim, dataDim int) string {
	switch {
	case modelDim > 0 && dataDim == 0:
		return fmt.Sprintf("the model was trained with %d-dimensional node features: pass the --features used with 'gwf fit' (labels or attributes)", modelDim)
	case modelDim == 0 && dataDim > 0:
		return "the model was trained without node features: use --features none"
	default:
		return fmt.Sprintf("the model has %d-dimensional node features, the data %d: pass the --features used with 'gwf fit' on comparable data", modelDim, dataDim)
	}
}

// writeOutput calls write with stdout when path is "-" or empty, else writes the file through
// internal/atomicfile: a regular file is replaced only once complete (a failed run leaves no
// partial file), a symbolic link is followed, a FIFO or device is written in place and a
// folder is refused.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	return atomicfile.Write(path, write)
}
