package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// dataFlags are the flags that choose a graph dataset: a bundled one or a TU folder, the node
// features, the size limit and an optional subset.
type dataFlags struct {
	dataset     string
	tuDir       string
	features    string
	maxNodes    int
	maxMemory   float64 // GiB of dense matrices
	standardize bool
	subset      int
	subsetSeed  uint64
}

func (d *dataFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.dataset, "dataset", "", "bundled dataset to use (see 'gwf datasets'; case-insensitive)")
	fs.StringVar(&d.tuDir, "tu", "", "folder holding a dataset in TU format (NAME_A.txt[.gz], NAME_graph_indicator.txt[.gz], ...)")
	fs.StringVar(&d.features, "features", "none", "node features: none (structure only, the paper's setting), labels (one-hot node labels) or attributes")
	fs.IntVar(&d.maxNodes, "max-nodes", graphs.DefaultLimits.MaxNodes, "refuse graphs with more nodes than this")
	fs.BoolVar(&d.standardize, "standardize", false, "rescale each node-feature dimension to mean 0 and std 1 over the data read (recommended with --features attributes: raw attributes such as PROTEINS_full's reach 400 and drown the structure term)")
	fs.Float64Var(&d.maxMemory, "max-memory", float64(graphs.DefaultLimits.MaxDenseBytes)/(1<<30), "refuse datasets whose dense adjacency and feature matrices need more GiB than this")
	fs.IntVar(&d.subset, "subset", 0, "use only N graphs, the first N after a shuffle seeded by --subset-seed, kept in file order (0: all); for quick tries")
	fs.Uint64Var(&d.subsetSeed, "subset-seed", 1, "seed of the --subset shuffle")
}

// check validates the flags without reading anything; its errors are usage errors.
func (d *dataFlags) check() error {
	switch {
	case d.dataset == "" && d.tuDir == "":
		return usagef("give the data with --dataset NAME or --tu DIR")
	case d.dataset != "" && d.tuDir != "":
		return usagef("give either --dataset or --tu, not both")
	case d.maxNodes < 1:
		return usagef("--max-nodes = %d must be at least 1", d.maxNodes)
	case !(d.maxMemory > 0) || d.maxMemory > 1<<20:
		return usagef("--max-memory = %v GiB must be positive (and at most 2^20)", d.maxMemory)
	case d.subset < 0:
		return usagef("--subset = %d must not be negative", d.subset)
	}
	if _, err := graphs.ParseFeatureKind(d.features); err != nil {
		return usagef("--features: %w", err)
	}
	if d.dataset != "" && !isBundled(d.dataset) {
		return usagef("unknown dataset %q (bundled: %s; use --tu for a folder)", d.dataset, strings.Join(datasets.Names(), ", "))
	}
	return nil
}

// limits are the reader limits of the flags.
func (d *dataFlags) limits() graphs.Limits {
	return graphs.Limits{MaxNodes: d.maxNodes, MaxDenseBytes: int64(d.maxMemory * (1 << 30))}
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

// load reads the dataset and applies --subset. The result's Graphs are in the order used for
// training and output.
func (d *dataFlags) load() (*graphs.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	kind, _ := graphs.ParseFeatureKind(d.features) // checked above
	opt := graphs.TUOptions{Features: kind, Limits: d.limits()}
	var ds *graphs.Dataset
	var err error
	if d.dataset != "" {
		ds, err = datasets.Load(d.dataset, opt)
	} else {
		ds, err = graphs.ReadTUDir(d.tuDir, opt)
	}
	if err != nil {
		return nil, fmt.Errorf("load data: %w", err)
	}
	if len(ds.Graphs) == 0 {
		return nil, fmt.Errorf("load data: dataset %s has no graphs", ds.Name)
	}
	d.applySubset(ds)
	if d.standardize {
		graphs.StandardizeFeatures(ds.Graphs)
	}
	return ds, nil
}

// applySubset keeps --subset graphs of ds: a seeded random choice, kept in file order.
func (d *dataFlags) applySubset(ds *graphs.Dataset) {
	if d.subset <= 0 || d.subset >= len(ds.Graphs) {
		return
	}
	pick := rand.New(rand.NewPCG(d.subsetSeed, 0x5eb5e7)).Perm(len(ds.Graphs))[:d.subset]
	slices.Sort(pick)
	sub := make([]*graphs.Graph, d.subset)
	for i, p := range pick {
		sub[i] = ds.Graphs[p]
	}
	ds.Graphs = sub
}

// classLabel is the original class label of g as text ("" when it has none).
func classLabel(ds *graphs.Dataset, g *graphs.Graph) string {
	if !g.HasLabel {
		return ""
	}
	if g.Label >= 0 && g.Label < len(ds.Classes) {
		return fmt.Sprint(ds.Classes[g.Label])
	}
	return fmt.Sprint(g.Label)
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

// writeOutput calls write with stdout when path is "-" or empty, else with a temporary file in
// the folder of path that is renamed to path once complete, so a failed run leaves no partial
// file behind.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
