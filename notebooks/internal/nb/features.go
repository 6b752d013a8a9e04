package nb

import (
	"fmt"
	"strings"
)

// PaperFeatures is the paper's choice of node features per dataset: "the graphs in AIDS,
// PROTEIN, and PROTEIN-F ... are with node attributes" (4, 1 and 29 dimensions), while IMDB-B
// "merely contain[s] topological information".
const PaperFeatures = "AIDS=attributes,PROTEINS=attributes,PROTEINS_full=attributes"

// Features maps dataset names to gwf's node-feature kinds (none, labels or attributes).
type Features map[string]string

// ParseFeatures reads "AIDS=attributes,PROTEINS=labels" (empty entries are skipped).
func ParseFeatures(s string) (Features, error) {
	out := Features{}
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		d, f, ok := strings.Cut(kv, "=")
		if !ok || (f != "none" && f != "labels" && f != "attributes") {
			return nil, fmt.Errorf("%q: want DATASET=none|labels|attributes", kv)
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
