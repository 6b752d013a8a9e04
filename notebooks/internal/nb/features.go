package nb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/training"
)

// DefaultFeatures follows the paper's choice of node features per dataset — "the graphs in
// AIDS, PROTEIN, and PROTEIN-F ... are with node attributes" (4, 1 and 29 dimensions), IMDB-B
// "merely contain[s] topological information" — with the attributes standardized (mean 0,
// std 1 per dimension over the dataset) and weighed by training.BalanceFeatures. The paper does
// not say how it scaled them; the FGW cost adds squared feature distances to the structure term
// unweighted, so raw attributes in arbitrary units (AIDS's atom codes and 2-D drawing
// coordinates, PROTEINS_full's values up to 400) would make the model depend on those units,
// and even standardized, PROTEINS_full's 29 dimensions cost 140 times the structure.
const DefaultFeatures = "AIDS=attributes-bal,PROTEINS=attributes-bal,PROTEINS_full=attributes-bal"

// Features maps dataset names to node-feature kinds: none, labels, attributes,
// attributes-std (attributes standardized) or attributes-bal (standardized, and weighed against
// the structure by training.BalanceFeatures: gwf's --feature-weight auto).
type Features map[string]string

// kinds are the feature kinds Features accepts.
func kinds() []string {
	return []string{"none", "labels", "attributes", "attributes-std", "attributes-bal"}
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

// Of is the feature kind of dataset d ("none" when unlisted).
func (f Features) Of(d string) string {
	if k, ok := f[d]; ok {
		return k
	}
	return "none"
}

// Flags are gwf's flags for dataset d's features.
func (f Features) Flags(d string) []string {
	p := f.Prep(d)
	flags := []string{"--features", p.Kind}
	if p.Standardize {
		flags = append(flags, "--standardize")
	}
	if p.Balance {
		flags = append(flags, "--feature-weight", "auto")
	}
	return flags
}

// Prep says how dataset d's node features are prepared.
type Prep struct {
	Kind        string // graphs feature kind: none, labels, attributes or both
	Standardize bool   // mean 0 and std 1 per dimension over the dataset
	Balance     bool   // feature weight from training.BalanceFeatures, not 1
}

// Prep is the preparation of dataset d's features.
func (f Features) Prep(d string) Prep {
	switch k := f.Of(d); k {
	case "attributes-std":
		return Prep{Kind: "attributes", Standardize: true}
	case "attributes-bal":
		return Prep{Kind: "attributes", Standardize: true, Balance: true}
	default:
		return Prep{Kind: k}
	}
}

// Spec is the collection.Spec of bundled dataset d with its features prepared and subset
// graphs kept, evenly spread over the file (some files are sorted by class; 0: all). The
// command line reads the same collection with --dataset d plus the flags of Flags.
func (f Features) Spec(d string, subset int) (collection.Spec, error) {
	p := f.Prep(d)
	kind, err := graphs.ParseFeatureKind(p.Kind)
	if err != nil {
		return collection.Spec{}, err
	}
	return collection.Spec{Dataset: d, Features: kind, Standardize: p.Standardize, Subset: subset, SubsetSpread: true}, nil
}

// Load reads the bundled dataset d as Spec describes it and returns the feature weight to
// train with: 1, or the balanced weight of the graphs kept.
func (f Features) Load(d string, subset int) (*graphs.Dataset, float64, error) {
	spec, err := f.Spec(d, subset)
	if err != nil {
		return nil, 0, err
	}
	ds, err := collection.Load(spec)
	if err != nil {
		return nil, 0, err
	}
	if !f.Prep(d).Balance {
		return ds, 1, nil
	}
	b, err := training.BalanceFeatures(graphs.Slice(ds.Graphs))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", d, err)
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
