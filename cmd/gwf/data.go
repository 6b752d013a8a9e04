package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// dataFlags are the shared data flags (graphs/collection/dataflags) as the commands use them: check's
// errors are usage errors (exit status 2).
type dataFlags struct {
	dataflags.Flags
}

// register adds the flags. A folder where only some graphs have a class label is read as
// unlabelled (a warning says so), unless the command sets PartialLabels to keep them.
func (d *dataFlags) register(fs *pflag.FlagSet) {
	d.Register(fs)
	d.PartialLabels = graphs.PartialLabelsDropped
}

// check validates the flags without reading anything.
func (d *dataFlags) check() error {
	if err := d.Check(); err != nil {
		return cli.Usage(err)
	}
	return nil
}

// spec is the collection the flags describe; check must have passed.
func (d *dataFlags) spec() collection.Spec { return d.Spec() }

// load checks the flags and reads the collection, --subset applied, and warns of what only
// some graphs have (warnLeftOut).
func (d *dataFlags) load(log *logrus.Logger) (*graphs.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	ds, err := d.Load()
	if err != nil {
		return nil, err
	}
	warnLeftOut(log, ds)
	return ds, nil
}

// loadTraining is load for a command that learns from the data or compares them: where it
// reads no node features and the data have some, it says which and how to use them.
func (d *dataFlags) loadTraining(log *logrus.Logger) (*graphs.Dataset, error) {
	ds, err := d.load(log)
	if err != nil {
		return nil, err
	}
	if hint := dataflags.UnusedFeatures(ds); hint != "" {
		log.Info(hint)
	}
	return ds, nil
}

// useModelFeatures makes the flags read node features as the model's training data were read
// (dataflags.Flags.UseEncoding; enc nil: a model file from before encodings were kept, read as
// the flags say), logging what it changed. Its errors are usage errors.
func (d *dataFlags) useModelFeatures(log *logrus.Logger, enc *graphs.FeatureEncoding) error {
	if err := d.check(); err != nil {
		return err
	}
	changed, err := d.UseEncoding(enc)
	if err != nil {
		return cli.Usage(err)
	}
	if changed {
		how := "--features " + d.Features
		if d.Standardize {
			how += " --standardize (with the training data's means and scales)"
		}
		if s, _ := d.StructureChoice(); s != graphs.Adjacency {
			how += " --structure " + string(s)
		}
		log.Infof("reading the graphs as the model's training data were: %s", how)
	}
	return nil
}

// warnUnknownNodeLabels says how many nodes had a node label the model never saw.
func warnUnknownNodeLabels(log *logrus.Logger, unknown int) {
	if unknown > 0 {
		log.Warnf("%d nodes have node labels the model's training data did not have: their one-hot features are zero", unknown)
	}
}

// modelFeatures is the feature encoding of the data read, for a new model to keep.
func modelFeatures(ds *graphs.Dataset) *graphs.FeatureEncoding {
	e := ds.Encoding.Clone()
	return &e
}

// featureHint explains a feature-dimension mismatch between a model and the data.
func featureHint(modelDim, dataDim int) string {
	switch {
	case modelDim > 0 && dataDim == 0:
		return fmt.Sprintf("the model was trained with %d-dimensional node features: pass the --features it was trained with (labels, attributes or both)", modelDim)
	case modelDim == 0 && dataDim > 0:
		return "the model was trained without node features: use --features none"
	default:
		return fmt.Sprintf("the model has %d-dimensional node features, the data %d: read the data with the --features it was trained with", modelDim, dataDim)
	}
}

// loadAutoFeatures checks the flags and reads the data, with the node features they have
// where --features was not given (dataflags.Flags.LoadAutoFeatures), saying which.
func (d *dataFlags) loadAutoFeatures(log *logrus.Logger) (*graphs.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	ds, err := d.LoadAutoFeatures()
	if err != nil {
		return nil, err
	}
	if !d.FeaturesGiven {
		log.Infof("node features: %s (the data's own; --features none for structure only)", crossval.DescribeFeatures(ds.Encoding))
	}
	if len(ds.Unread) > 0 {
		what := "which gwf does not read"
		if slices.Contains(ds.Unread, "edge labels") { // both commands that load this way have the flag
			what = "not read here (--edge-labels reads the edge labels)"
		}
		log.Infof("%s also has %s, %s", ds.Name, strings.Join(ds.Unread, " and "), what)
	}
	warnLeftOut(log, ds)
	return ds, nil
}

// warnLeftOut says what only some graphs have (Dataset.LeftOut).
func warnLeftOut(log *logrus.Logger, ds *graphs.Dataset) {
	for _, l := range ds.LeftOut {
		log.Warnf("%s: %s", ds.Name, l)
	}
}
