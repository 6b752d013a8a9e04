package graphs

import (
	"fmt"
	"math"
	"slices"
)

// FeatureEncoding says how a collection's node features were made from its files: their kind,
// the node-label value of each one-hot column, and the standardization applied. A model keeps
// the encoding of its training data so that graphs it has never seen get the same features
// (TUOptions.NodeLabels, ApplyStandardization) rather than an encoding of their own: a folder
// whose node labels are a subset of the training values, or standardized over itself, would
// otherwise be encoded differently, or not fit the model at all. It also keeps the structure
// matrix the graphs were given (Structure), which new graphs must be given too.
type FeatureEncoding struct {
	Kind FeatureKind `json:"kind"`
	// NodeLabels are the values of the one-hot columns (Kind FeaturesLabels, FeaturesBoth),
	// sorted.
	NodeLabels []int `json:"node_labels,omitempty"`
	// NodeLabelNames are instead the one-hot columns of a folder's categorical node
	// attributes (Kind FeaturesLabels, FeaturesBoth), "name=value", sorted.
	NodeLabelNames []string `json:"node_label_names,omitempty"`
	// Attributes, with Kind FeaturesBoth, is the number of attribute columns, which come
	// before the one-hot columns; 0 for the other kinds.
	Attributes int `json:"attributes,omitempty"`
	// Mean and Scale, when set, standardized each feature dimension: x' = (x − Mean)/Scale.
	// With Kind FeaturesBoth the one-hot columns keep mean 0 and scale 1
	// (FeatureEncoding.Standardization).
	Mean  []float64 `json:"mean,omitempty"`
	Scale []float64 `json:"scale,omitempty"`
	// Structure is the matrix that replaced each graph's adjacency (Structure.Apply); the
	// zero value is the adjacency itself.
	Structure Structure `json:"structure,omitempty"`
	// EdgeLabels says that the graphs carry edge labels (TUOptions.EdgeLabels,
	// FolderOptions.EdgeLabels): a model trained on them reads them from new graphs too.
	EdgeLabels bool `json:"edge_labels,omitempty"`
}

// Dim is the feature width the encoding gives: the number of one-hot values for labels, of
// means for standardized attributes, DegreeBins for degrees, 0 for none and for attributes not
// standardized (whose width it does not record).
func (e FeatureEncoding) Dim() int {
	switch {
	case e.Kind.HasLabels():
		return e.Attributes + len(e.NodeLabels) + len(e.NodeLabelNames)
	case e.Kind == FeaturesDegrees:
		return DegreeBins
	}
	return len(e.Mean)
}

// Standardized reports whether the features were standardized.
func (e FeatureEncoding) Standardized() bool { return e.Mean != nil }

// Validate checks that the encoding is one a reader could have made: no values or
// standardization for kind none; sorted, distinct node-label values for labels (none for
// attributes); as many finite means as positive finite scales, one per dimension.
func (e FeatureEncoding) Validate() error {
	if e.Structure != "" && e.Structure != Adjacency && e.Structure != ShortestPath {
		return fmt.Errorf("graphs: feature encoding: unknown structure %q", e.Structure)
	}
	if e.Attributes != 0 && (e.Kind != FeaturesBoth || e.Attributes < 0) {
		return fmt.Errorf("graphs: feature encoding: %d attribute columns for kind %s", e.Attributes, e.Kind)
	}
	switch e.Kind {
	case FeaturesNone, FeaturesDegrees:
		if e.NodeLabels != nil || e.NodeLabelNames != nil || e.Mean != nil || e.Scale != nil {
			return fmt.Errorf("graphs: feature encoding: kind %s with %d node-label values and %d means", e.Kind, len(e.NodeLabels), len(e.Mean))
		}
		return nil
	case FeaturesLabels, FeaturesBoth:
		switch {
		case e.Kind == FeaturesBoth && e.Attributes == 0:
			return fmt.Errorf("graphs: feature encoding: both without attribute columns")
		case len(e.NodeLabels) == 0 && len(e.NodeLabelNames) == 0:
			return fmt.Errorf("graphs: feature encoding: labels without node-label values")
		case len(e.NodeLabels) > 0 && len(e.NodeLabelNames) > 0:
			return fmt.Errorf("graphs: feature encoding: both node-label values and names")
		case len(e.NodeLabelNames) > 0:
			if !slices.IsSorted(e.NodeLabelNames) || len(slices.Compact(slices.Clone(e.NodeLabelNames))) != len(e.NodeLabelNames) {
				return fmt.Errorf("graphs: feature encoding: node-label names not sorted and distinct")
			}
		default:
			if err := checkNodeLabelValues(e.Kind, e.NodeLabels); err != nil {
				return fmt.Errorf("graphs: feature encoding: %w", err)
			}
		}
	case FeaturesAttributes:
		if e.NodeLabels != nil || e.NodeLabelNames != nil {
			return fmt.Errorf("graphs: feature encoding: node-label values for attributes")
		}
	default:
		return fmt.Errorf("graphs: feature encoding: unknown kind %d", int(e.Kind))
	}
	if e.Mean == nil && e.Scale == nil {
		return nil
	}
	d := len(e.Mean)
	if d == 0 || len(e.Scale) != d || (e.Kind.HasLabels() && d != e.Dim()) {
		return fmt.Errorf("graphs: feature encoding: %d means and %d scales for %d feature columns", d, len(e.Scale), e.Dim())
	}
	if err := checkMeanScale(e.Mean, e.Scale); err != nil {
		return fmt.Errorf("graphs: feature encoding: %w", err)
	}
	if e.Kind == FeaturesBoth {
		for j := e.Attributes; j < d; j++ {
			if e.Mean[j] != 0 || e.Scale[j] != 1 {
				return fmt.Errorf("graphs: feature encoding: one-hot column %d standardized (mean %v, scale %v)", j, e.Mean[j], e.Scale[j])
			}
		}
	}
	return nil
}

// Standardization returns the means and scales that standardize the features of src
// (graphs.Standardization), except that with Kind FeaturesBoth the one-hot columns keep mean
// 0 and scale 1: standardizing a label of frequency p would weigh it by 1/√(p(1−p)), and a
// rare atom type would outweigh everything else.
func (e FeatureEncoding) Standardization(src Source) (mean, scale []float64, err error) {
	if mean, scale, err = Standardization(src); err != nil || e.Kind != FeaturesBoth {
		return mean, scale, err
	}
	for j := e.Attributes; j < len(mean); j++ {
		mean[j], scale[j] = 0, 1
	}
	return mean, scale, nil
}

// checkMeanScale checks a standardization: finite means, finite positive scales.
func checkMeanScale(mean, scale []float64) error {
	for j := range mean {
		if math.IsNaN(mean[j]) || math.IsInf(mean[j], 0) || !(scale[j] > 0) || math.IsInf(scale[j], 0) {
			return fmt.Errorf("dimension %d has mean %v and scale %v (want finite, scale > 0)", j, mean[j], scale[j])
		}
	}
	return nil
}

// Clone returns a deep copy.
func (e FeatureEncoding) Clone() FeatureEncoding {
	c := e // every field, then fresh slices
	c.NodeLabels, c.NodeLabelNames = slices.Clone(e.NodeLabels), slices.Clone(e.NodeLabelNames)
	c.Mean, c.Scale = slices.Clone(e.Mean), slices.Clone(e.Scale)
	return c
}

// ApplyStandardization standardizes the node features of gs in place with given means and
// scales (those StandardizeFeatures returned for the training data): x' = (x − mean)/scale.
// Features that are missing, of another width or not finite, before or after, are an error, and
// then nothing is changed.
func ApplyStandardization(gs []*Graph, mean, scale []float64) error {
	d := len(mean)
	if len(scale) != d {
		return fmt.Errorf("standardize: %d means and %d scales", d, len(scale))
	}
	if err := checkFeatures(gs, d); err != nil {
		return err
	}
	if err := checkMeanScale(mean, scale); err != nil {
		return fmt.Errorf("standardize: %w", err)
	}
	// A value far outside the training range can overflow once divided by a small scale.
	for gi, g := range gs {
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			for j, v := range g.F.RawRowView(i) {
				if x := v/scale[j] - mean[j]/scale[j]; math.IsInf(x, 0) {
					return fmt.Errorf("standardize: graph %d, node %d: feature dimension %d (%v) is out of range for mean %v and scale %v", gi, i, j, v, mean[j], scale[j])
				}
			}
		}
	}
	standardize(gs, mean, scale)
	return nil
}
