package nbkit

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
)

// Features maps dataset names to node-feature kinds: none, labels, attributes, attributes-std
// (attributes standardized) or attributes-bal (standardized, and weighed against the structure
// by training.BalanceFeatures: gwf's --feature-weight auto). A dataset not listed is learned
// from its structure only.
type Features map[string]string

// kinds are the feature kinds Features accepts.
func kinds() []string {
	return []string{"none", "labels", "attributes", "attributes-std", "attributes-bal"}
}

// kindOf names f as a Features kind.
func kindOf(f datasets.Features) string {
	switch {
	case f.Kind == graphs.FeaturesAttributes && f.Standardize && f.Balance:
		return "attributes-bal"
	case f.Kind == graphs.FeaturesAttributes && f.Standardize:
		return "attributes-std"
	}
	return f.Kind.String()
}

// PaperFeatures are the node features of the paper for every bundled dataset
// (datasets.PaperFeatures), listing those that have some.
func PaperFeatures() Features {
	out := Features{}
	for _, d := range datasets.Names() {
		f, err := datasets.PaperFeatures(d)
		if err != nil {
			panic(err) // unreachable: d is bundled
		}
		if k := kindOf(f); k != "none" {
			out[d] = k
		}
	}
	return out
}

// ParseFeatures reads "AIDS=attributes-std,PROTEINS=labels" (empty entries are skipped).
func ParseFeatures(s string) (Features, error) {
	out := Features{}
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		d, f, ok := strings.Cut(kv, "=")
		if !ok || !slices.Contains(kinds(), f) {
			return nil, fmt.Errorf("%q: want DATASET=%s", kv, strings.Join(kinds(), "|"))
		}
		out[d] = f
	}
	return out, nil
}

// String is f as ParseFeatures reads it, sorted by dataset.
func (f Features) String() string {
	var parts []string
	for _, d := range slices.Sorted(maps.Keys(f)) {
		parts = append(parts, d+"="+f[d])
	}
	return strings.Join(parts, ",")
}

// Of is the feature kind of dataset d ("none" when unlisted).
func (f Features) Of(d string) string {
	if k, ok := f[d]; ok {
		return k
	}
	return "none"
}

// Prep says how dataset d's node features are prepared.
func (f Features) Prep(d string) datasets.Features {
	switch k := f.Of(d); k {
	case "attributes-std":
		return datasets.Features{Kind: graphs.FeaturesAttributes, Standardize: true}
	case "attributes-bal":
		return datasets.Features{Kind: graphs.FeaturesAttributes, Standardize: true, Balance: true}
	default:
		kind, _ := graphs.ParseFeatureKind(k) // one of kinds()
		return datasets.Features{Kind: kind}
	}
}

// Flags are gwf's flags for dataset d's features.
func (f Features) Flags(d string) []string {
	p := f.Prep(d)
	flags := []string{"--features", p.Kind.String()}
	if p.Standardize {
		flags = append(flags, "--standardize")
	}
	if p.Balance {
		flags = append(flags, "--feature-weight", "auto")
	}
	return flags
}

// Spec is the collection.Spec of bundled dataset d with its features prepared and subset
// graphs kept, evenly spread over the file (some files are sorted by class; 0: all). The
// command line reads the same collection with --dataset d plus the flags of Flags.
func (f Features) Spec(d string, subset int) collection.Spec {
	p := f.Prep(d)
	return collection.Spec{Dataset: d, Features: p.Kind, Standardize: p.Standardize, Subset: subset, SubsetSpread: true}
}

// Load reads the bundled dataset d as Spec describes it and returns the feature weight to
// train with: 1, or the balanced weight of the graphs kept.
func (f Features) Load(d string, subset int) (*graphs.Dataset, float64, error) {
	ds, err := collection.Load(f.Spec(d, subset))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", d, err)
	}
	if !f.Prep(d).Balance {
		return ds, 1, nil
	}
	b, err := training.BalanceFeatures(graphs.Slice(ds.Graphs))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: balance the features: %w", d, err)
	}
	return ds, b.Weight, nil
}

// Describe lists the kinds of the given datasets as a --features value.
func (f Features) Describe(datasets []string) string {
	var parts []string
	for _, d := range datasets {
		parts = append(parts, d+"="+f.Of(d))
	}
	return strings.Join(parts, ",")
}

// CellName is a result folder's or file's name for a dataset, a solver and the dataset's
// features: DATASET-SOLVER, with -FEATURES appended unless they are none.
func (f Features) CellName(d, solver string) string {
	name := d + "-" + solver
	if k := f.Of(d); k != "none" {
		name += "-" + k
	}
	return name
}
