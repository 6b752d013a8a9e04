package crossval

import (
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// NewGWFModel is the semi-supervised model FractionGWF trains on ds (classes classes, as
// ClassLabels counts them): new, keeping the data's feature encoding and class names so that
// `gwf predict` encodes new graphs alike and names their classes.
func NewGWFModel(ds *graphs.Dataset, classes int, cfg training.Config, sc semisup.Config) (*semisup.Model, error) {
	m, err := semisup.NewModel(ds.Graphs, classes, cfg, sc)
	if err != nil {
		return nil, err
	}
	e := ds.Encoding.Clone()
	m.GWF.Features = &e
	if len(ds.Classes) == classes {
		m.Classes = ds.Classes
	}
	if len(ds.ClassNames) == classes {
		m.ClassNames = ds.ClassNames
	}
	return m, nil
}

// ResumeGWFModel loads the model a FractionGWF run on ds saved at path, to train it on; epochs,
// above 0, replaces the number of epochs it trains for. A model of other graphs or classes is
// an error.
func ResumeGWFModel(path string, ds *graphs.Dataset, classes, epochs int) (*semisup.Model, error) {
	m, err := semisup.Load(path)
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	if epochs > 0 {
		m.GWF.Config.Epochs = epochs
	}
	if r, _ := m.GWF.Z.Dims(); r != len(ds.Graphs) || m.Head.Classes() != classes {
		return nil, fmt.Errorf("resume: %s holds a model of %d graphs and %d classes, the data has %d and %d", path, r, m.Head.Classes(), len(ds.Graphs), classes)
	}
	return m, nil
}
