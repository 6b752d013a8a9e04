package training

import "github.com/gwf-graphs/gwf/layers"

// Bounds on the work and memory a Config may ask for. They are far above any setting of the
// paper or of gwf's tests, and keep a mistyped flag or a hostile model file (epochs = 10⁹)
// from making a run that never ends or allocates without limit: Validate refuses what exceeds
// them, with an error that names the field.
const (
	MaxAtoms     = 10_000
	MaxAtomSize  = 100_000
	MaxAtomCells = 1 << 30 // Atoms × AtomSize²: 8 GiB of atom parameters
	MaxGWBLayers = 1_000
	MaxEpochs    = 1_000_000
	MaxBatch     = 1 << 20
	// MaxFeatureWeight bounds the weight of the feature cost (layers.MaxFeatureWeight).
	MaxFeatureWeight = layers.MaxFeatureWeight
	// MaxLearningRate and MaxZInitStd keep Adam's steps and the initial embeddings on a scale
	// where softmax(z) is finite.
	MaxLearningRate = 100
	MaxZInitStd     = 100
)
