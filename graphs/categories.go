package graphs

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Categorical node attributes: the string values of node-link, GraphML and GML node attributes
// (networkx's "element": "C", "type": "donor"), one-hot encoded over a folder's values as
// FeaturesLabels encodes a TU dataset's integer node labels. Column "name=value" is 1 where
// the node's attribute name has that value.

// MaxCategories bounds the distinct values of one categorical attribute over a folder: an
// attribute with more (node names, identifiers) is not a category and is left out.
const MaxCategories = 64

// nodeCategories holds a graph's string node attributes as read: by attribute name, each
// node's value, "" where the node has none.
type nodeCategories map[string][]string

// set records node i's value of attribute name (n nodes).
func (c nodeCategories) set(name string, i, n int, value string) {
	vs, ok := c[name]
	if !ok {
		vs = make([]string, n)
		c[name] = vs
	}
	vs[i] = value
}

// categoryColumns are the one-hot columns of the categorical attributes of gs, "name=value",
// sorted: every attribute with at most MaxCategories distinct values, and the values it
// takes. It also returns the attributes left out for having more.
func categoryColumns(gs []*Graph) (columns, dropped []string) {
	values := map[string]map[string]bool{}
	for _, g := range gs {
		for name, vs := range g.categories {
			seen := values[name]
			if seen == nil {
				seen = map[string]bool{}
				values[name] = seen
			}
			for _, v := range vs {
				if v != "" && len(seen) <= MaxCategories {
					seen[v] = true
				}
			}
		}
	}
	for name, seen := range values {
		if len(seen) > MaxCategories {
			dropped = append(dropped, name)
			continue
		}
		for v := range seen {
			columns = append(columns, categoryColumn(name, v))
		}
	}
	slices.Sort(columns)
	slices.Sort(dropped)
	return columns, dropped
}

func categoryColumn(name, value string) string { return name + "=" + value }

// oneHotCategories returns g's categorical attributes one-hot encoded over columns (sorted),
// and how many of its nodes have a value of an encoded attribute that no column stands for
// (their row lacks it). Attributes no column names are left out.
func (g *Graph) oneHotCategories(columns []string) (*mat.Dense, int) {
	n := g.N()
	f := mat.NewDense(n, len(columns), nil)
	unknown := make([]bool, n)
	for name, vs := range g.categories {
		if k, _ := slices.BinarySearch(columns, name+"="); k == len(columns) || !strings.HasPrefix(columns[k], name+"=") {
			continue
		}
		for i, v := range vs {
			if v == "" {
				continue
			}
			if j, ok := slices.BinarySearch(columns, categoryColumn(name, v)); ok {
				f.Set(i, j, 1)
			} else {
				unknown[i] = true
			}
		}
	}
	k := 0
	for _, u := range unknown {
		if u {
			k++
		}
	}
	return f, k
}

// encodeCategories gives every graph of ds its categorical attributes one-hot as F, over
// columns when given (a model's FeatureEncoding.NodeLabelNames) or else over the values the
// graphs take; the attributes' values are dropped. It records the columns in ds.Encoding and
// the nodes with a value not among given columns in ds.UnknownNodeLabels. No column at all is
// an ErrNoFeatures error.
func (ds *Dataset) encodeCategories(columns []string, room int64) error {
	if columns == nil {
		var dropped []string
		columns, dropped = categoryColumns(ds.Graphs)
		if len(columns) == 0 {
			why := "no string node attributes"
			if len(dropped) > 0 {
				why = fmt.Sprintf("string node attributes %q, each with more than %d values, are not categories", dropped, MaxCategories)
			}
			return fmt.Errorf("%w: node features \"labels\" of a folder are the one-hot string node attributes of its node-link JSON, GraphML, GML and GEXF files: %s", ErrNoFeatures, why)
		}
	}
	var need int64
	for _, g := range ds.Graphs {
		need += int64(g.N()) * int64(len(columns)) * 8
	}
	if need > room {
		return fmt.Errorf("the one-hot node labels (%d columns) need %s, over the memory left of the limit (%s) (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			len(columns), tuBytes(need), tuBytes(room))
	}
	unlabelled, first := 0, ""
	for _, g := range ds.Graphs {
		f, unknown := g.oneHotCategories(columns)
		if unknown == 0 && f.Norm(1) == 0 { // no node has a value, known or not
			if unlabelled++; first == "" {
				first = g.Name
			}
		}
		if ds.Encoding.Kind == FeaturesBoth {
			ds.Encoding.Attributes = g.Dim()
			f = besideAttributes(g.F, f)
		}
		g.F, g.categories = f, nil
		ds.UnknownNodeLabels += unknown
	}
	if unlabelled > 0 {
		ds.LeftOut = append(ds.LeftOut, fmt.Sprintf("node labels missing: %d of the %d graphs have none, %s first (their nodes match no label)", unlabelled, len(ds.Graphs), first))
	}
	ds.Encoding.NodeLabelNames = slices.Clone(columns)
	return nil
}

// besideAttributes returns the matrix whose rows are those of attrs followed by those of
// onehot.
func besideAttributes(attrs, onehot *mat.Dense) *mat.Dense {
	n, da := attrs.Dims()
	_, dl := onehot.Dims()
	f := mat.NewDense(n, da+dl, nil)
	f.Slice(0, n, 0, da).(*mat.Dense).Copy(attrs)
	f.Slice(0, n, da, da+dl).(*mat.Dense).Copy(onehot)
	return f
}
