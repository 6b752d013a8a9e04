package graphs

// How a folder's numeric node attributes go together: matched by name across the graphs
// (sameAttributes), and, with FolderOptions.OmitPartialAttributes, those that some nodes of a
// graph lack left out of every graph (omitPartialAttributes).

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// checkAttributes refuses the graph g at path whose node features do not go with those of
// the graphs read before it: none where they have some, other attributes, another width. A
// first graph without any gets noneFirst's error.
func checkAttributes(path string, g *Graph, read []*Graph, noneFirst func() error) error {
	switch {
	case g.F == nil && len(read) == 0:
		return noneFirst()
	case g.F == nil:
		return partialAttributes(path, read[0].Name, read[0].Dim())
	case len(read) == 0:
		return nil
	}
	if err := sameAttributes(path, g, read); err != nil {
		return err
	}
	if d0 := read[0].Dim(); g.Dim() != d0 {
		return fmt.Errorf("%s: %d node features, but %s has %d", path, g.Dim(), read[0].Name, d0)
	}
	return nil
}

// sameAttributes refuses the graph g at path whose numeric node attributes are not those of
// the graphs read before it, by name: a feature column must be one attribute in every graph,
// not "temperature" in some and "charge" in others. Features without names (the JSON form's)
// are matched by position.
func sameAttributes(path string, g *Graph, read []*Graph) error {
	if len(read) == 0 || g.attrColumns == nil || read[0].attrColumns == nil || slices.Equal(g.attrColumns, read[0].attrColumns) {
		return nil
	}
	return fmt.Errorf("%s: numeric node attributes %s, but %s has %s: features are matched by attribute name, not position (give every graph the same ones, or leave them out with --features labels or none)",
		path, attrColumnNames(g.attrColumns), read[0].Name, attrColumnNames(read[0].attrColumns))
}

// omitPartialAttributes leaves out of every graph of ds (of the folder dir, read with
// features) the numeric node attributes that a reader left out of a graph because some of its
// nodes lack them (NodeLinkOptions.OmitPartialAttributes), says so in ds.LeftOut, then checks
// the graphs' features as a folder read without it would: a graph without any, or with other
// names, is still refused (sameAttributes).
func (ds *Dataset) omitPartialAttributes(dir string, features FeatureKind) error {
	// why says, for each attribute left out, which node lacks it.
	why := map[string]string{}
	for _, g := range ds.Graphs {
		for _, o := range g.omittedAttrs {
			if _, ok := why[o.name]; !ok {
				why[o.name] = fmt.Sprintf("node %s of %s lacks it, node %s has it", o.node, g.Name, o.has)
			}
		}
		g.omittedAttrs = nil
	}
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(why)) {
		notes = append(notes, fmt.Sprintf("numeric node attribute %q left out of the node features: %s (give it to every node to use it; --features attributes or both refuse such graphs)", name, why[name]))
	}
	for _, g := range ds.Graphs {
		g.dropAttributes(why)
	}
	// The first graph without features: the error names one with, or says none has any.
	noneFirst := func() error {
		if i := slices.IndexFunc(ds.Graphs, func(g *Graph) bool { return g.F != nil }); i > 0 {
			return partialAttributes(filepath.Join(dir, ds.Graphs[0].Name), ds.Graphs[i].Name, ds.Graphs[i].Dim())
		}
		return noAttributes(dir, ds.Graphs[0].Name, features, nil, nil)
	}
	for k, g := range ds.Graphs {
		if err := checkAttributes(filepath.Join(dir, g.Name), g, ds.Graphs[:k], noneFirst); err != nil {
			if notes != nil {
				err = &leftOutError{err: err, notes: notes}
			}
			return err
		}
	}
	ds.LeftOut = append(ds.LeftOut, notes...)
	return nil
}

// dropAttributes removes the columns of the numeric node attributes named in drop from F; F
// is nil when none is left.
func (g *Graph) dropAttributes(drop map[string]string) {
	var cols []attrColumn
	var keep []int // the columns of F kept
	at := 0
	for _, c := range g.attrColumns {
		if _, gone := drop[c.name]; !gone {
			cols = append(cols, c)
			for j := range c.width {
				keep = append(keep, at+j)
			}
		}
		at += c.width
	}
	switch {
	case len(keep) == at:
		return
	case len(keep) == 0:
		g.F, g.attrColumns = nil, nil
		return
	}
	f := mat.NewDense(g.N(), len(keep), nil)
	for i := range g.N() {
		row, out := g.F.RawRowView(i), f.RawRowView(i)
		for j, c := range keep {
			out[j] = row[c]
		}
	}
	g.F, g.attrColumns = f, cols
}

// leftOutError is the error of a folder read with FolderOptions.OmitPartialAttributes, with
// what was left out before it went wrong.
type leftOutError struct {
	err   error
	notes []string
}

func (e *leftOutError) Error() string {
	return fmt.Sprintf("%v (after this was left out: %s)", e.err, strings.Join(e.notes, "; "))
}

func (e *leftOutError) Unwrap() error { return e.err }

// LeftOutOf is what a folder read with FolderOptions.OmitPartialAttributes left out before
// the error err (as Dataset.LeftOut would have said it), nil for other errors: a caller that
// reads the folder again with other features, where none was left (ErrNoAttributes), may
// still say it.
func LeftOutOf(err error) []string {
	var e *leftOutError
	if errors.As(err, &e) {
		return e.notes
	}
	return nil
}

// autoFeatures gives the graphs of ds, read with their numeric and string node attributes
// (FolderOptions.AutoFeatures), the features the folder has, as reading it with each of both,
// attributes, labels and none in turn would, until one has them: the attributes where every
// graph has some once those that some nodes lack are left out, the string attributes one-hot
// where there are any. keep says to keep the edge labels (keepEdgeLabels); withAttrs and
// without are the memory left for the one-hot labels with the attributes and without them.
func (ds *Dataset) autoFeatures(dir string, keep bool, withAttrs, without int64) error {
	var notes []string // what the attributes left out, where none was left
	attrs, room := true, withAttrs
	if err := ds.omitPartialAttributes(dir, FeaturesBoth); errors.Is(err, ErrNoFeatures) {
		attrs, room, notes = false, without, LeftOutOf(err)
		for _, g := range ds.Graphs {
			g.F, g.attrColumns = nil, nil
		}
	} else if err != nil {
		return err
	}
	ds.keepEdgeLabels(keep)
	ds.Encoding.Kind = FeaturesLabels
	if attrs {
		ds.Encoding.Kind = FeaturesBoth
	}
	err := ds.encodeCategories(nil, room) // refuses before it changes anything
	switch {
	case errors.Is(err, ErrNoFeatures):
		ds.Encoding.Kind = FeaturesNone
		if attrs {
			ds.Encoding.Kind = FeaturesAttributes
		}
		for _, g := range ds.Graphs {
			g.categories = nil
		}
	case err != nil:
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, l := range slices.Backward(notes) {
		if !slices.Contains(ds.LeftOut, l) {
			ds.LeftOut = slices.Insert(ds.LeftOut, 0, l)
		}
	}
	return nil
}
