package collection

import (
	"errors"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
)

// autoTries are the features AutoFeatures asks for, in order, until the data have them; after
// them, none.
var autoTries = []struct {
	features    graphs.FeatureKind
	standardize bool
}{
	{graphs.FeaturesBoth, true},
	{graphs.FeaturesAttributes, true},
	{graphs.FeaturesLabels, false},
}

// loadAuto is Load of a valid spec with AutoFeatures: each of autoTries in turn until one
// reads, else none. A try fails early where a TU source lacks the files of the features asked
// for. A Folder is read through before it can tell, so it is read once, with all it has, and
// the reader chooses among them as the tries would (graphs.FolderOptions.AutoFeatures).
func loadAuto(s Spec) (*graphs.Dataset, error) {
	s.OmitPartialAttributes = true
	if s.Dataset == "" && s.TU == "" {
		return load(s) // the features chosen, standardized as their try says
	}
	return loadTries(s)
}

// loadTries is loadAuto's tries, each a load of its own.
func loadTries(s Spec) (*graphs.Dataset, error) {
	s.AutoFeatures = false
	noAttributes := false
	var leftOut []string // what the tries that failed left out, for the one that reads
	withLeftOut := func(ds *graphs.Dataset) *graphs.Dataset {
		for _, l := range slices.Backward(leftOut) {
			if !slices.Contains(ds.LeftOut, l) {
				ds.LeftOut = slices.Insert(ds.LeftOut, 0, l)
			}
		}
		return ds
	}
	for _, try := range autoTries {
		if noAttributes && try.features.HasAttributes() {
			continue
		}
		s.Features, s.Standardize = try.features, try.standardize
		ds, err := load(s)
		if err == nil {
			return withLeftOut(ds), nil
		}
		if !errors.Is(err, graphs.ErrNoFeatures) {
			return nil, err // features that are there but cannot be used: say why
		}
		noAttributes = noAttributes || errors.Is(err, graphs.ErrNoAttributes)
		for _, l := range graphs.LeftOutOf(err) {
			if !slices.Contains(leftOut, l) {
				leftOut = append(leftOut, l)
			}
		}
	}
	s.Features, s.Standardize = graphs.FeaturesNone, false
	ds, err := load(s)
	if err != nil {
		return nil, err
	}
	return withLeftOut(ds), nil
}

// autoStandardize is whether AutoFeatures standardizes the features kind: as autoTries says,
// and not for none.
func autoStandardize(kind graphs.FeatureKind) bool {
	for _, try := range autoTries {
		if try.features == kind {
			return try.standardize
		}
	}
	return false
}
