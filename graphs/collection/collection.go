package collection

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// Spec says which graph collection to load and how to prepare it. Exactly one of Dataset, TU
// and Folder is set.
type Spec struct {
	// Dataset is the name of a bundled dataset (datasets.Names; case-insensitive).
	Dataset string
	// TU is a folder or .zip archive in the TU Dortmund format (graph labels optional).
	TU string
	// Folder is a folder of graph files in the formats of graphs.ReadFolder.
	Folder string

	// Features are the node features to read (graphs.FeaturesLabels: a TU dataset's node
	// labels, or a folder's string node attributes, one-hot; graphs.FeaturesBoth: the
	// attributes followed by those labels; graphs.FeaturesDegrees: one-hot node degrees
	// instead of the data's own, made from the adjacency before Structure replaces it).
	Features graphs.FeatureKind
	// Standardize rescales every feature dimension to mean 0 and standard deviation 1 over the
	// graphs kept (graphs.FeatureEncoding.Standardization: one-hot columns of kind both stay
	// as they are).
	Standardize bool
	// Directed reads the edge lists of a Folder as directed.
	Directed bool
	// PartialLabels is what becomes of a Folder where only some graphs have a class label
	// (graphs.FolderOptions.PartialLabels); TU datasets label all graphs or none.
	PartialLabels graphs.PartialLabels
	// OmitPartialAttributes leaves out of a Folder's graphs a numeric node attribute that
	// some nodes lack, saying so in Dataset.LeftOut, instead of refusing the folder
	// (graphs.FolderOptions.OmitPartialAttributes).
	OmitPartialAttributes bool
	// EdgeLabels reads edge labels where the files have them (graphs.TUOptions.EdgeLabels,
	// graphs.FolderOptions.EdgeLabels); an Encoding that has them asks for them too.
	EdgeLabels bool
	// AutoFeatures reads the node features the data have, in place of Features and
	// Standardize (which stay at their zero values): the numeric attributes, standardized,
	// followed by the one-hot node labels where the data have both; else the attributes,
	// standardized, or the labels; else none. A numeric node attribute of a Folder that some
	// nodes lack is left out and Dataset.LeftOut says so, also where that leaves no attribute
	// (OmitPartialAttributes is implied); features that are there but cannot be read (of
	// differing widths or names, not finite) are an error, not a reason to leave them out.
	// Dataset.Encoding says what was read (its Kind, Standardized and EdgeLabels). A Folder
	// is read once (graphs.FolderOptions.AutoFeatures). It takes neither an Encoding nor a
	// Window.
	AutoFeatures bool

	// Subset, when positive and smaller than the collection, keeps only that many graphs, in
	// file order: a random choice seeded by SubsetSeed, or evenly spread over the files with
	// SubsetSpread (which suits files sorted by class).
	Subset       int
	SubsetSeed   uint64
	SubsetSpread bool

	// Window, when not nil, narrows the graphs kept (after Subset) to kept[lo:hi] for
	// (lo, hi) = Window(len(kept)), chosen before anything is read: a contiguous part of the
	// collection, such as a shard of it or a chunk of a shard. An empty window gives a Dataset
	// without graphs rather than an error. It cannot be combined with Standardize, which would
	// then standardize over the window alone.
	Window func(kept int) (lo, hi int)

	// Structure replaces each graph's adjacency by its structure matrix (graphs.Structure; the
	// zero value keeps the adjacency), checked against Limits. With an Encoding, it must be
	// the Encoding's.
	Structure graphs.Structure

	// Limits bound each graph and the memory of the graphs kept; zero fields mean
	// graphs.DefaultLimits.
	Limits graphs.Limits

	// Encoding, when set (the graphs.FeatureEncoding a model kept of its training data), makes
	// the node features as they were made for that model, whatever the graphs read: the
	// one-hot columns are its NodeLabels, and its means and scales standardize. Features and
	// Standardize must say the same as it (its Kind, its Standardized()). With a fixed
	// standardization, Window may be combined with Standardize.
	Encoding *graphs.FeatureEncoding

	// readFolder, when not nil, reads a Folder in place of graphs.ReadFolder (a test counts
	// the reads through it).
	readFolder func(dir string, opt graphs.FolderOptions) (*graphs.Dataset, error)
}

// Validate checks the spec without reading anything.
func (s Spec) Validate() error {
	n := 0
	for _, v := range []string{s.Dataset, s.TU, s.Folder} {
		if v != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return errors.New("collection: no data: set one of Dataset, TU and Folder")
	case n > 1:
		return errors.New("collection: set only one of Dataset, TU and Folder")
	case s.Subset < 0:
		return fmt.Errorf("collection: Subset = %d is negative", s.Subset)
	case s.Features < graphs.FeaturesNone || s.Features > graphs.FeaturesDegrees:
		return fmt.Errorf("collection: unknown feature kind %d", int(s.Features))
	case s.Features == graphs.FeaturesDegrees && s.Standardize:
		return errors.New("collection: one-hot degrees are not standardized: leave Standardize unset")
	case s.Window != nil && s.Standardize && s.Encoding == nil:
		return errors.New("collection: Standardize with a Window would standardize the features over the window alone")
	case s.Window != nil && s.Folder != "" && s.Features.HasLabels() && s.Encoding == nil:
		return errors.New("collection: a Window of a folder would one-hot encode its node labels over the window alone: give the Encoding whose columns to use")
	case s.AutoFeatures && (s.Features != graphs.FeaturesNone || s.Standardize):
		return errors.New("collection: AutoFeatures chooses the features and their standardization: leave Features and Standardize unset")
	case s.AutoFeatures && (s.Encoding != nil || s.Window != nil):
		return errors.New("collection: AutoFeatures reads what the data have: it takes neither an Encoding nor a Window")
	}
	if e := s.Encoding; e != nil {
		switch {
		case e.Kind != s.Features:
			return fmt.Errorf("collection: features %q asked for, but the encoding given is of %q", s.Features, e.Kind)
		case e.Standardized() != s.Standardize:
			return fmt.Errorf("collection: Standardize = %v, but the encoding given is standardized: %v", s.Standardize, e.Standardized())
		case s.structure() != structureOf(e.Structure):
			return fmt.Errorf("collection: structure %s asked for, but the encoding given is of %s", s.structure(), structureOf(e.Structure))
		}
		if err := e.Validate(); err != nil {
			return fmt.Errorf("collection: %w", err)
		}
		switch {
		case s.Folder != "" && e.NodeLabels != nil:
			return errors.New("collection: the encoding's node labels are a TU dataset's integer labels; a folder has string node attributes")
		case s.Folder == "" && e.NodeLabelNames != nil:
			return errors.New("collection: the encoding's node labels are a folder's string node attributes; TU data have integer labels")
		}
	}
	if s.Structure != "" && s.Structure != graphs.Adjacency && s.Structure != graphs.ShortestPath {
		return fmt.Errorf("collection: unknown structure %q", s.Structure)
	}
	if s.Dataset != "" && !slices.ContainsFunc(datasets.Names(), func(n string) bool { return strings.EqualFold(n, s.Dataset) }) {
		return fmt.Errorf("collection: unknown bundled dataset %q (bundled: %v)", s.Dataset, datasets.Names())
	}
	return nil
}

// Pick returns the indices of the graphs Subset keeps out of n, sorted; all of them when
// Subset is 0 or at least n. The random choice is the first Subset entries of a permutation
// seeded by SubsetSeed, so it is the same on every machine and for every caller.
func (s Spec) Pick(n int) []int {
	k := s.Subset
	if k <= 0 || k >= n {
		k = n
	}
	pick := make([]int, k)
	switch {
	case k == n:
		for i := range pick {
			pick[i] = i
		}
	case s.SubsetSpread:
		for i := range pick {
			pick[i] = i * n / k
		}
	default:
		copy(pick, rand.New(rand.NewPCG(s.SubsetSeed, 0x5eb5e7)).Perm(n)[:k])
		slices.Sort(pick)
	}
	return pick
}

// Load reads the collection of the spec: the subset chosen before the graphs are read (and
// checked against the limits), then the features standardized when asked. With AutoFeatures,
// the returned Dataset.Encoding says which node features were read.
func Load(s Spec) (*graphs.Dataset, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.AutoFeatures {
		return loadAuto(s)
	}
	return load(s)
}

// readFolderWith reads a Folder: with s.readFolder where a test counts the reads, else
// graphs.ReadFolder.
func (s Spec) readFolderWith(dir string, opt graphs.FolderOptions) (*graphs.Dataset, error) {
	if s.readFolder != nil {
		return s.readFolder(dir, opt)
	}
	return graphs.ReadFolder(dir, opt)
}

// load is Load of a valid spec whose features are given.
func load(s Spec) (*graphs.Dataset, error) {
	var windowErr error
	pick := func(n int) []int {
		kept := s.Pick(n)
		if s.Window == nil {
			return kept
		}
		lo, hi := s.Window(len(kept))
		if lo < 0 || hi < lo || hi > len(kept) {
			windowErr = fmt.Errorf("collection: Window(%d) = [%d, %d) is not a slice of the %d graphs kept", len(kept), lo, hi, len(kept))
			return nil
		}
		return kept[lo:hi]
	}
	tu := graphs.TUOptions{Features: s.Features, Limits: s.Limits, Select: pick, EdgeLabels: s.EdgeLabels}
	if s.Encoding != nil {
		tu.NodeLabels = s.Encoding.NodeLabels
		tu.EdgeLabels = tu.EdgeLabels || s.Encoding.EdgeLabels
	}
	var ds *graphs.Dataset
	var err error
	switch {
	case s.Dataset != "":
		ds, err = datasets.Load(s.Dataset, tu)
	case s.TU != "":
		ds, err = graphs.ReadTUPath(s.TU, tu)
	default:
		fo := graphs.FolderOptions{Features: s.Features, Directed: s.Directed, Limits: s.Limits, Select: pick, EdgeLabels: tu.EdgeLabels,
			PartialLabels: s.PartialLabels, OmitPartialAttributes: s.OmitPartialAttributes, AutoFeatures: s.AutoFeatures}
		if s.Encoding != nil {
			fo.NodeLabelNames = s.Encoding.NodeLabelNames
		}
		ds, err = s.readFolderWith(s.Folder, fo)
	}
	if windowErr != nil {
		return nil, windowErr
	}
	if err != nil {
		return nil, fmt.Errorf("collection: %w", err)
	}
	if len(ds.Graphs) == 0 && s.Window == nil {
		return nil, fmt.Errorf("collection: %s has no graphs", ds.Name)
	}
	if s.AutoFeatures { // a folder's, chosen by its reader
		s.Standardize = autoStandardize(ds.Encoding.Kind)
	}
	switch {
	case s.Standardize && s.Encoding != nil:
		if err := graphs.ApplyStandardization(ds.Graphs, s.Encoding.Mean, s.Encoding.Scale); err != nil {
			return nil, fmt.Errorf("collection %s: %w", ds.Name, err)
		}
		ds.Encoding.Mean, ds.Encoding.Scale = slices.Clone(s.Encoding.Mean), slices.Clone(s.Encoding.Scale)
	case s.Standardize:
		mean, scale, err := ds.Encoding.Standardization(graphs.Slice(ds.Graphs))
		if err == nil && mean != nil {
			err = graphs.ApplyStandardization(ds.Graphs, mean, scale)
		}
		if err != nil {
			return nil, fmt.Errorf("collection %s: %w", ds.Name, err)
		}
		ds.Encoding.Mean, ds.Encoding.Scale = mean, scale
	}
	if err := s.applyStructure(ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// structure is the spec's structure, Adjacency for the zero value.
func (s Spec) structure() graphs.Structure { return structureOf(s.Structure) }

func structureOf(st graphs.Structure) graphs.Structure {
	if st == "" {
		return graphs.Adjacency
	}
	return st
}

// applyStructure gives the graphs of ds the spec's structure and records it in ds.Encoding
// (the adjacency as the zero value, so that an Encoding without a structure means the
// adjacency).
func (s Spec) applyStructure(ds *graphs.Dataset) error {
	if s.structure() == graphs.Adjacency {
		ds.Encoding.Structure = ""
		return nil
	}
	out, err := s.Structure.ApplyWithin(ds.Graphs, s.Limits)
	if err != nil {
		return fmt.Errorf("collection %s: %w", ds.Name, err)
	}
	ds.Graphs, ds.Encoding.Structure = out, s.Structure
	return nil
}
