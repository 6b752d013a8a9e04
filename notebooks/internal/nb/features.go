package nb

import (
	"fmt"
	"strings"
)

// DefaultFeatures follows the paper's choice of node features per dataset — "the graphs in
// AIDS, PROTEIN, and PROTEIN-F ... are with node attributes" (4, 1 and 29 dimensions), IMDB-B
// "merely contain[s] topological information" — with the attributes standardized (mean 0,
// std 1 per dimension over the dataset). The paper does not say how it scaled them; the FGW
// cost adds squared feature distances to the structure term unweighted, so raw attributes in
// arbitrary units (AIDS's atom codes and 2-D drawing coordinates, PROTEINS_full's values up to
// 400) would make the model depend on those units.
const DefaultFeatures = "AIDS=attributes-std,PROTEINS=attributes-std,PROTEINS_full=attributes-std"

// Features maps dataset names to node-feature kinds: none, labels, attributes, or
// attributes-std (attributes standardized).
type Features map[string]string

// ParseFeatures reads "AIDS=attributes-std,PROTEINS=labels" (empty entries are skipped).
func ParseFeatures(s string) (Features, error) {
	out := Features{}
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		d, f, ok := strings.Cut(kv, "=")
		if !ok || (f != "none" && f != "labels" && f != "attributes" && f != "attributes-std") {
			return nil, fmt.Errorf("%q: want DATASET=none|labels|attributes|attributes-std", kv)
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
	k, standardize := f.Kind(d)
	if standardize {
		return []string{"--features", k, "--standardize"}
	}
	return []string{"--features", k}
}

// Kind is the graphs feature kind of dataset d and whether to standardize it.
func (f Features) Kind(d string) (kind string, standardize bool) {
	if k := f.Of(d); k != "attributes-std" {
		return k, false
	}
	return "attributes", true
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
