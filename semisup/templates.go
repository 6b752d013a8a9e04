package semisup

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// TemplateConfig configures a TemplateModel.
type TemplateConfig struct {
	// Templates is K, the number of templates (0: TemplatesPerClass per class).
	Templates int `json:"templates"`
	// TemplateNodes bounds a template's size: each starts as a connected piece of at most this
	// many nodes of a training graph. 0: the median size of the labelled graphs a model is
	// made from (MedianNodes), which the model then keeps as its TemplateNodes.
	TemplateNodes int `json:"template_nodes"`
	// TemplateSizes, where it has two sizes or more, bounds the templates in its place: the K
	// templates fall into len(TemplateSizes) consecutive groups of (nearly) equal count, group
	// g's bounded by TemplateSizes[g] (0: the median size, as TemplateNodes 0), so that one
	// head reads templates of several sizes. A model keeps the sizes it resolved.
	TemplateSizes []int `json:"template_sizes,omitempty"`
	// FeatureWeight is w in the FGW cost structure + w·features: its value, or with
	// LearnWeight its first value, which training then moves (as TFGW learns its α).
	FeatureWeight float64 `json:"feature_weight"`
	LearnWeight   bool    `json:"learn_weight,omitempty"`
	// BalanceWeight makes FeatureWeight a multiple of the balanced weight: the weight at which
	// the structure and feature costs have the same mean over the graphs the model is made
	// from, as it reads them (pairwise.BalanceFeatures; no label is read). The model keeps the
	// product as its FeatureWeight, so that its file and its predictions need nothing more.
	// Without it the weight is absolute, and many standardized attributes outweigh the
	// structure many times over (docs/results/templates.md, "The balanced feature weight").
	BalanceWeight bool `json:"balance_weight,omitempty"`
	// LearnNodeWeights learns each template's node weights (softmax of logits that start at 0:
	// uniform), as TFGW does; otherwise they stay uniform.
	LearnNodeWeights bool `json:"learn_node_weights,omitempty"`
	// Structure is the matrix a graph is compared by: its adjacency (TFGW's) or its shortest
	// paths (FGW's); the encoder passes messages along the edges either way.
	Structure graphs.Structure `json:"structure,omitempty"`
	// WLRounds appends that many rounds of continuous Weisfeiler-Lehman refinement to the node
	// features (wlFeatures: each node's features averaged with its neighbours', round after
	// round), so that the templates compare neighbourhoods as WL labels do, without weights to
	// learn (0: the features as they are).
	WLRounds int `json:"wl_rounds,omitempty"`
	// WLLabels appends the hashed Weisfeiler-Lehman labels of that many iterations to
	// categorical node features (one-hot labels, or one-hot degrees), one-hot themselves
	// (appendWLRows; the codes of graphs.WLCodes, FGW's WL labels), so that two nodes match
	// where their labelled neighbourhood trees are the same (0: none). Each model keeps the codes
	// common in the graphs it was made from (TemplateModel.WLVocabulary); attributes are read as
	// they are. Not with WLRounds.
	WLLabels int `json:"wl_labels,omitempty"`
	// WLRareColumns, with WLLabels, gives each iteration's codes outside the vocabulary that
	// many more one-hot columns, a code's column drawn from its hash, so that two nodes of rare
	// neighbourhood trees differ as FGW's Hamming distance between WL labels says (but for the
	// 1/WLRareColumns chance that their codes share a column). 0: a rare code leaves its block
	// zero, and every rare node of an iteration looks alike.
	WLRareColumns int `json:"wl_rare_columns,omitempty"`
	// WLEdgeLabels, with WLLabels, codes the edges' labels too (graphs.WLCodesWithEdges: a
	// double bond and a single bond to the same atom differ from the first iteration on), as
	// 'gwf classify' does, where every graph the model is made from has edge labels; a model
	// made from graphs without them keeps it false (NewTemplateModel), and then reads none.
	WLEdgeLabels bool `json:"wl_edge_labels,omitempty"`
	// NodeFeatures is which node features the model reads: NodeFeaturesData (the graphs' own,
	// or one-hot degrees for graphs without; "" too), NodeFeaturesNone (one-hot degrees: the
	// structure alone, whatever features the graphs have) or NodeFeaturesAuto: for
	// TrainTemplates with a validation split, the graphs' own unless the structure alone does
	// clearly better on it; otherwise, and for a model made alone, the graphs' own.
	NodeFeatures NodeFeatureSource `json:"node_features,omitempty"`
	// GraphStatistics has the head read each graph's statistics (graphs.LogStatistics,
	// standardized over the training graphs) beside its discrepancies to the templates.
	GraphStatistics bool `json:"graph_statistics,omitempty"`
	// Encoder is EncoderGIN (node features from GIN layers, concatenated with the input
	// features), EncoderNone (the graphs' own node features, or one-hot degrees) or, for
	// TrainTemplates, EncoderAuto (the better of the two on the validation split).
	Encoder EncoderKind `json:"encoder"`
	// EncoderHidden are the GIN layers' widths.
	EncoderHidden []int `json:"encoder_hidden,omitempty"`
	// Hidden are the head's hidden widths (ReLU); none: a linear head on the K discrepancies.
	Hidden []int `json:"hidden"`
	// LearningRate is Adam's, for every parameter; WeightDecay its L2 penalty.
	LearningRate float64 `json:"learning_rate"`
	WeightDecay  float64 `json:"weight_decay,omitempty"`
	// Epochs and BatchSize set the training loop: shuffled mini-batches of labelled graphs.
	Epochs    int `json:"epochs"`
	BatchSize int `json:"batch_size"`
	// Beta weighs the GWF reconstruction term (the paper's β trade-off, semi-supervised):
	// every training graph, labelled or not, is reconstructed as the GW barycenter of the
	// templates (as GWF's atoms, Algorithm 3) weighted by softmax of its negated standardized
	// discrepancies, so that graphs without a label shape the templates too. 0: labels only.
	Beta float64 `json:"beta,omitempty"`
	// PseudoLabels, when > 0 and some training graphs have no label, self-trains: the model
	// trained on the labelled graphs predicts the others, the most confident share PseudoLabels
	// of the graphs predicted each class take that class as a label, and the model is trained
	// again on both, its validation split still drawn from the true labels (selfTrain). 0: the
	// graphs without a label train only through Beta's reconstruction term.
	PseudoLabels float64 `json:"pseudo_labels,omitempty"`
	// Validation is the fraction of the labelled graphs held out (stratified) to choose the
	// epoch whose weights are kept; 0 keeps the last epoch's.
	Validation float64 `json:"validation"`
	// AverageEpochs, when > 0, keeps an exponential moving average of every parameter over
	// about that many epochs of Adam steps (Polyak averaging): validation scores the averaged
	// parameters and the model keeps them, so that the epoch kept depends less on where one
	// noisy step landed. 0: the parameters as trained.
	AverageEpochs float64 `json:"average_epochs,omitempty"`
	// Patience, with a validation split, ends training once that many epochs in a row have
	// not scored better on it than the best so far (0: train every epoch).
	Patience int `json:"patience,omitempty"`
	// MaxEpochs, when above Epochs and with a validation split, makes Epochs a minimum:
	// past it, training goes on while the validation accuracy has risen above its best within
	// the last extendWindow(Epochs) epochs, up to MaxEpochs, for models still learning at
	// Epochs. Epochs 1 to Epochs are the same as without it. 0: Epochs.
	MaxEpochs int `json:"max_epochs,omitempty"`
	// SolverIterations caps the Frank-Wolfe iterations of each exact CG solve of the template
	// layer, in training and prediction alike (0: layers.DefaultCG's, POT's 10000). From the
	// warm start most solves converge in a few iterations, but some creep towards the tolerance
	// for many more; a cap keeps the near-optimal transport the creep starts from.
	SolverIterations int `json:"solver_iterations,omitempty"`
	// SolverTolerance is the relative change of the objective at which each CG solve of the
	// template layer stops, in training and prediction alike (0: layers.DefaultCG's, POT's
	// 1e-9, which files written before the setting mean). Frank-Wolfe crawls along plateaus of
	// adjacency matrices, changing a discrepancy by parts per million.
	SolverTolerance float64 `json:"solver_tolerance,omitempty"`
	// Seed seeds the initialisation, the split and the batches.
	Seed uint64 `json:"seed"`
	// Members is the number of models TrainTemplates trains, each from its own seed
	// (MemberSeed), whose mean class probabilities predict (0: DefaultMembers). A
	// TemplateModel is one member: NewTemplateModel and FitTemplates do not read it.
	Members int `json:"members,omitempty"`
}

// MemberCount is the number of members TrainTemplates trains.
func (c TemplateConfig) MemberCount() int {
	if c.Members > 0 {
		return c.Members
	}
	return DefaultMembers
}

// NodeFeatureSource is which node features a template model reads (TemplateConfig.NodeFeatures);
// its JSON is the name, and "" means NodeFeaturesData.
type NodeFeatureSource string

// The node-feature sources.
const (
	NodeFeaturesData NodeFeatureSource = "data"
	NodeFeaturesNone NodeFeatureSource = "none"
	NodeFeaturesAuto NodeFeatureSource = "auto"
)

// Valid reports whether s is one of the node-feature sources or "".
func (s NodeFeatureSource) Valid() bool {
	switch s {
	case "", NodeFeaturesData, NodeFeaturesNone, NodeFeaturesAuto:
		return true
	}
	return false
}

// DefaultMembers is the ensemble's size when TemplateConfig.Members is 0.
const DefaultMembers = 3

// TemplatesPerClass is the number of templates per class when TemplateConfig.Templates is 0.
const TemplatesPerClass = 4

// DefaultTemplateConfig returns 4 templates per class of at most 12 nodes compared by their
// adjacency, the graphs' own node features unless the structure alone does clearly better on
// the validation split (no encoder; categorical features with their Weisfeiler-Lehman labels
// of DefaultWLLabels iterations) at weight 1, a head with one hidden layer of 64 reading the
// discrepancies, Adam at 0.01, 60 epochs of 32 graphs, 10 % of the labelled graphs choosing the
// epoch, and three members. They were chosen on MUTAG, a folder of random-graph classes and
// IMDB-BINARY (docs/results/templates.md).
func DefaultTemplateConfig() TemplateConfig {
	return TemplateConfig{TemplateNodes: 12, FeatureWeight: 1, Structure: graphs.Adjacency, NodeFeatures: NodeFeaturesAuto, Encoder: EncoderNone, WLLabels: DefaultWLLabels,
		EncoderHidden: DefaultEncoderHidden(), Hidden: []int{64}, LearningRate: 0.01, Epochs: 60, BatchSize: 32, Validation: 0.1, Seed: 1, Members: DefaultMembers,
		SolverTolerance: DefaultTemplateSolverTolerance}
}

// DefaultWLLabels is DefaultTemplateConfig's WLLabels.
const DefaultWLLabels = 3

// DefaultTemplateSolverTolerance is DefaultTemplateConfig's SolverTolerance.
const DefaultTemplateSolverTolerance = 1e-6

// TemplateCount is the number of templates for data of the given classes.
func (c TemplateConfig) TemplateCount(classes int) int {
	if c.Templates > 0 {
		return c.Templates
	}
	return min(TemplatesPerClass*classes, maxTemplates)
}

// Bounds on the settings: beyond them a typo would run for days or exhaust memory.
const (
	maxTemplates     = 1000
	maxTemplateNodes = 1000
	maxEpochs        = 100000
	maxWLRareColumns = 4096
)

// MaxMembers bounds TemplateConfig.Members.
const MaxMembers = 100

// MaxSolverIterations bounds TemplateConfig.SolverIterations: layers.DefaultCG's cap, beyond
// which a solve could only run longer.
const MaxSolverIterations = 10000

// Validate checks the settings.
func (c TemplateConfig) Validate() error {
	switch {
	case c.Templates < 0 || c.Templates > maxTemplates:
		return fmt.Errorf("templates: %d templates (0 to %d; 0: %d per class)", c.Templates, maxTemplates, TemplatesPerClass)
	case c.TemplateNodes < 0 || c.TemplateNodes > maxTemplateNodes:
		return fmt.Errorf("templates: %d nodes per template (1 to %d; 0: the median graph size)", c.TemplateNodes, maxTemplateNodes)
	case len(c.TemplateSizes) == 1 || len(c.TemplateSizes) > maxTemplates || (c.Templates > 0 && len(c.TemplateSizes) > c.Templates):
		return fmt.Errorf("templates: %d template sizes (2 to the number of templates; one size is TemplateNodes)", len(c.TemplateSizes))
	case slices.ContainsFunc(c.TemplateSizes, func(n int) bool { return n < 0 || n > maxTemplateNodes }):
		return fmt.Errorf("templates: template sizes %v (each 1 to %d; 0: the median graph size)", c.TemplateSizes, maxTemplateNodes)
	case !(c.AverageEpochs >= 0) || c.AverageEpochs > maxEpochs:
		return fmt.Errorf("templates: averaging over %v epochs (0 to %d; 0: none)", c.AverageEpochs, maxEpochs)
	case !(c.FeatureWeight >= 0) || math.IsInf(c.FeatureWeight, 0):
		return fmt.Errorf("templates: feature weight %v must be finite and ≥ 0", c.FeatureWeight)
	case c.Encoder != EncoderGIN && c.Encoder != EncoderNone && c.Encoder != EncoderAuto:
		return fmt.Errorf("templates: encoder %q, want none, gin or auto", c.Encoder)
	case !c.NodeFeatures.Valid():
		return fmt.Errorf("templates: node features %q, want data, none or auto", c.NodeFeatures)
	case c.Encoder == EncoderAuto && !(c.Validation > 0):
		return fmt.Errorf("templates: encoder auto chooses on the validation split: the validation fraction must be > 0")
	case !(c.LearningRate > 0 && c.LearningRate <= 10):
		return fmt.Errorf("templates: learning rate %v, want (0, 10]", c.LearningRate)
	case c.Epochs < 1 || c.Epochs > maxEpochs:
		return fmt.Errorf("templates: %d epochs (1 to %d)", c.Epochs, maxEpochs)
	case c.BatchSize < 1 || c.BatchSize > 1<<20:
		return fmt.Errorf("templates: batch size %d (1 to %d)", c.BatchSize, 1<<20)
	case !(c.Beta >= 0 && c.Beta <= 1e6):
		return fmt.Errorf("templates: beta %v, want [0, 1e6]", c.Beta)
	case !(c.PseudoLabels >= 0 && c.PseudoLabels <= 1):
		return fmt.Errorf("templates: pseudo-labels for a share %v of the unlabelled graphs, want [0, 1]", c.PseudoLabels)
	case !(c.WeightDecay >= 0 && c.WeightDecay <= 1):
		return fmt.Errorf("templates: weight decay %v, want [0, 1]", c.WeightDecay)
	case c.WLRounds < 0 || c.WLRounds > graphs.MaxWLIterations:
		return fmt.Errorf("templates: %d Weisfeiler-Lehman rounds (0 to %d)", c.WLRounds, graphs.MaxWLIterations)
	case c.WLLabels < 0 || c.WLLabels > graphs.MaxWLIterations:
		return fmt.Errorf("templates: %d Weisfeiler-Lehman label iterations (0 to %d)", c.WLLabels, graphs.MaxWLIterations)
	case c.WLRareColumns < 0 || c.WLRareColumns > maxWLRareColumns || (c.WLRareColumns > 0 && c.WLLabels == 0):
		return fmt.Errorf("templates: %d columns for rare Weisfeiler-Lehman labels (0 to %d, with WL labels only)", c.WLRareColumns, maxWLRareColumns)
	case c.WLEdgeLabels && c.WLLabels == 0:
		return fmt.Errorf("templates: edge labels are read into the Weisfeiler-Lehman labels: they need WL labels (at least 1 iteration)")
	case c.WLLabels > 0 && c.WLRounds > 0:
		return fmt.Errorf("templates: Weisfeiler-Lehman labels and continuous rounds together; choose one")
	case c.Structure != "" && c.Structure != graphs.Adjacency && c.Structure != graphs.ShortestPath:
		return fmt.Errorf("templates: structure %q, want adjacency or shortest-path", c.Structure)
	case c.Patience < 0 || c.Patience > maxEpochs:
		return fmt.Errorf("templates: patience of %d epochs (0 to %d)", c.Patience, maxEpochs)
	case c.MaxEpochs != 0 && (c.MaxEpochs < c.Epochs || c.MaxEpochs > maxEpochs):
		return fmt.Errorf("templates: at most %d epochs (%d to %d, or 0: the %d epochs)", c.MaxEpochs, c.Epochs, maxEpochs, c.Epochs)
	case c.Members < 0 || c.Members > MaxMembers:
		return fmt.Errorf("templates: %d members (1 to %d; 0: %d)", c.Members, MaxMembers, DefaultMembers)
	case c.SolverIterations < 0 || c.SolverIterations > MaxSolverIterations:
		return fmt.Errorf("templates: %d solver iterations (1 to %d; 0: %d)", c.SolverIterations, MaxSolverIterations, MaxSolverIterations)
	case !(c.SolverTolerance >= 0 && c.SolverTolerance < 1):
		return fmt.Errorf("templates: solver tolerance %v (0 to 1; 0: POT's 1e-9)", c.SolverTolerance)
	case !(c.Validation >= 0 && c.Validation < 1):
		return fmt.Errorf("templates: validation fraction %v, want [0, 1)", c.Validation)
	}
	if (c.Encoder == EncoderGIN || c.Encoder == EncoderAuto) && len(c.EncoderHidden) == 0 {
		return fmt.Errorf("templates: the gin encoder needs at least one layer width")
	}
	for _, h := range append(append([]int{}, c.EncoderHidden...), c.Hidden...) {
		if h < 1 || h > maxWidth {
			return fmt.Errorf("templates: a layer of %d units (1 to %d)", h, maxWidth)
		}
	}
	return nil
}

// TemplateModel is a template-based graph classifier in the manner of TFGW (Vincent-Cuaz et al.,
// NeurIPS 2022): a graph's node features pass through a GIN encoder (node level, every layer's
// output concatenated with the input), the graph is embedded as its FGW discrepancies to K
// learnable template graphs (gwops.Templates: structure, node features, uniform node weights),
// and an MLP reads the K discrepancies. Encoder, templates and head train together with
// Gorgonia's Adam on the cross-entropy, through the envelope theorem (transports detached).
type TemplateModel struct {
	Config TemplateConfig
	// Encoder holds the GIN layers' W_l and b_l (nil with EncoderNone).
	Encoder *GNN
	// Inputs is the width of the node features read (InputDim of the graphs' features), before
	// Config.WLRounds or Config.WLLabels widen them.
	Inputs int
	// WLVocabulary holds, with Config.WLLabels, the codes of each iteration that have a one-hot
	// column (wlVocabulary of the graphs the model was made from); nil where the node features
	// are not one-hot, which the model then reads as they are.
	WLVocabulary [][]uint64
	Templates    []TemplateGraph
	// logWeight is log w when the feature weight is learned (one entry; nil otherwise): a
	// parameter, stepped in place.
	logWeight []float64
	// Shift and Scale standardize the discrepancies the head reads, template by template: their
	// mean and standard deviation over the training graphs when the model was made.
	Shift, Scale []float64
	// StatShift and StatScale standardize the graph statistics the head reads with
	// Config.GraphStatistics, likewise (nil otherwise).
	StatShift, StatScale []float64
	Head                 *MLP
	History              []TemplateEpoch
	// BestEpoch is the epoch whose weights the model holds (chosen on the validation split).
	BestEpoch int
	// validGraphs is the size of the validation split FitTemplates chose the epoch on.
	validGraphs int
	// Features is how the training graphs' node features were read, for new graphs to be
	// read alike (nil when unknown).
	Features *graphs.FeatureEncoding
	ClassLabels
}

// TemplateGraph is one template: V (the structure is ReLU(V)), its node features H in the
// encoder's output space (nil when the model compares structures only) and node weights: Mu, or
// softmax(Logits) when they are learned (TemplateConfig.LearnNodeWeights).
type TemplateGraph struct {
	V      *mat.Dense
	H      *mat.Dense
	Mu     []float64
	Logits []float64
}

// Weights are the template's node weights: softmax(Logits) when learned, else Mu.
func (t TemplateGraph) Weights() []float64 {
	if t.Logits == nil {
		return t.Mu
	}
	out := make([]float64, len(t.Logits))
	layers.Softmax(out, t.Logits)
	return out
}

// TemplateEpoch records one epoch: the mean training cross-entropy, the validation accuracy
// (NaN without a validation split) and the time.
type TemplateEpoch struct {
	Epoch              int     `json:"epoch"`
	CrossEntropy       float64 `json:"cross_entropy"`
	ValidationAccuracy float64 `json:"validation_accuracy"`
	Seconds            float64 `json:"seconds"`
}

// FeatureWeight is the weight w of the features in the FGW cost, as learned.
func (m *TemplateModel) FeatureWeight() float64 {
	if m.logWeight != nil {
		return math.Exp(m.logWeight[0])
	}
	return m.Config.FeatureWeight
}

// read returns the graphs as the model reads them: without their node features under
// NodeFeaturesNone, else as they are.
func (c TemplateConfig) read(data []*graphs.Graph) []*graphs.Graph {
	if c.NodeFeatures == NodeFeaturesNone {
		return graphs.WithoutFeatures(data)
	}
	return data
}

// WLLabelColumns is the number of one-hot Weisfeiler-Lehman label columns the model reads
// beside its input features: 0 where Config.WLLabels is 0 or the node features are not
// categorical (attributes, read as they are).
func (m *TemplateModel) WLLabelColumns() int {
	if m.Config.WLLabels == 0 {
		return 0
	}
	return wlWidth(m.WLVocabulary, m.Config.WLRareColumns)
}

// readWidth is the width of the node features the encoder reads: the input features and their
// Weisfeiler-Lehman rounds or labels.
func (m *TemplateModel) readWidth() int {
	if m.Config.WLLabels > 0 && m.WLVocabulary != nil {
		return m.Inputs + wlWidth(m.WLVocabulary, m.Config.WLRareColumns)
	}
	return m.Inputs * (m.Config.WLRounds + 1)
}

// features is the width of the node features the templates compare: the input features (with
// their Weisfeiler-Lehman rounds), then every GIN layer's output.
func (m *TemplateModel) features() int {
	d := m.readWidth()
	if m.Encoder != nil {
		for _, w := range m.Encoder.W {
			_, c := w.Dims()
			d += c
		}
	}
	return d
}

// NewTemplateModel initialises a model for data with classes classes: the encoder's weights
// Glorot-uniform, the head's too, and template k a connected piece of a random training graph
// of class k mod classes (labels[i], Unlabeled for none), its features that piece's encoded
// node features — the templates start where the data are, as TFGW's do.
func NewTemplateModel(data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig) (*TemplateModel, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Encoder == EncoderAuto {
		return nil, fmt.Errorf("templates: encoder auto is a choice TrainTemplates makes; a model has encoder none or gin")
	}
	if len(data) == 0 || len(labels) != len(data) {
		return nil, fmt.Errorf("templates: %d graphs and %d labels", len(data), len(labels))
	}
	if cfg.NodeFeatures == NodeFeaturesAuto { // one model has nothing to choose with: it reads the data's
		cfg.NodeFeatures = NodeFeaturesData
	}
	data = cfg.read(data)
	if classes < 2 {
		return nil, fmt.Errorf("templates: %d classes (need 2 or more)", classes)
	}
	dim := data[0].Dim()
	for _, g := range data {
		if g.Dim() != dim {
			return nil, fmt.Errorf("templates: graph %q has %d node features, graph %q %d", g.Name, g.Dim(), data[0].Name, dim)
		}
	}
	cfg.WLEdgeLabels = cfg.ReadsEdgeLabels(data)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74666777))
	m := &TemplateModel{Config: cfg, Inputs: InputDim(dim)}
	if cfg.WLLabels > 0 {
		if err := m.learnWLVocabulary(data); err != nil {
			return nil, err
		}
	}
	if cfg.BalanceWeight && cfg.FeatureWeight > 0 {
		w, err := m.balancedWeight(data)
		if err != nil {
			return nil, err
		}
		cfg.FeatureWeight, cfg.BalanceWeight = cfg.FeatureWeight*w, false
		m.Config = cfg
	}
	if cfg.LearnWeight && cfg.FeatureWeight > 0 {
		m.logWeight = []float64{math.Log(cfg.FeatureWeight)}
	}
	if cfg.Encoder == EncoderGIN && cfg.FeatureWeight > 0 { // without features nothing reads an encoder
		e, in := &GNN{Kind: EncoderGIN}, m.readWidth()
		for _, h := range cfg.EncoderHidden {
			w := mat.NewDense(in, h, nil)
			glorot(w, rng)
			e.W, e.B, in = append(e.W, w), append(e.B, make([]float64, h)), h
		}
		m.Encoder = e
	}
	k := cfg.TemplateCount(classes)
	byClass := make([][]int, classes)
	var labelled []int
	for i, l := range labels {
		if l >= 0 && l < classes {
			byClass[l] = append(byClass[l], i)
			labelled = append(labelled, i)
		}
	}
	if len(labelled) == 0 {
		return nil, fmt.Errorf("templates: no labelled graph to start the templates from")
	}
	bounds, err := cfg.templateBounds(k, data, labelled)
	if err != nil {
		return nil, err
	}
	cfg.TemplateNodes, cfg.TemplateSizes = bounds.nodes, bounds.sizes
	m.Config.TemplateNodes, m.Config.TemplateSizes = bounds.nodes, bounds.sizes
	if cfg.GraphStatistics { // before the first binding of graphs, which reads them
		if m.StatShift, m.StatScale, err = statisticsScale(data, labelled); err != nil {
			return nil, err
		}
	}
	if m.Head, err = NewMLP(k+m.statisticsWidth(), cfg.Hidden, classes, ReLU, rng); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	starts := make([]*graphs.Graph, k)
	pieces := make([][]int, k)
	for t := 0; t < k; t++ {
		pool := byClass[t%classes]
		if len(pool) == 0 {
			pool = labelled
		}
		g := data[pool[rng.IntN(len(pool))]]
		starts[t], pieces[t] = g, connectedPiece(g, bounds.of(t, k), rng)
		c, err := cfg.Structure.Apply([]*graphs.Graph{g})
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		n := len(pieces[t])
		v := mat.NewDense(n, n, nil)
		for a, i := range pieces[t] {
			for b := 0; b < a; b++ {
				// Every entry starts positive: an entry at 0 gets no gradient through the ReLU.
				x := 0.9*c[0].A.At(i, pieces[t][b]) + 0.1*rng.Float64()
				v.Set(a, b, x)
				v.Set(b, a, x)
			}
		}
		mu := make([]float64, n)
		for i := range mu {
			mu[i] = 1 / float64(n)
		}
		tg := TemplateGraph{V: v, Mu: mu}
		if cfg.LearnNodeWeights {
			tg.Logits = make([]float64, n)
		}
		m.Templates = append(m.Templates, tg)
	}
	if cfg.FeatureWeight > 0 {
		if err := m.initTemplateFeatures(starts, pieces); err != nil {
			return nil, err
		}
	}
	if err := m.initStandardization(data, labelled, rng); err != nil {
		return nil, err
	}
	return m, nil
}

// templateBounds are the bounds on the templates' sizes a model resolved: one for all
// (nodes), or one for each consecutive group (sizes, where set).
type templateBounds struct {
	nodes int
	sizes []int
}

// templateBounds resolves c's bounds for k templates, a size 0 to the median size of the
// labelled graphs data[i], i in labelled.
func (c TemplateConfig) templateBounds(k int, data []*graphs.Graph, labelled []int) (templateBounds, error) {
	if len(c.TemplateSizes) > k {
		return templateBounds{}, fmt.Errorf("templates: %d template sizes for %d templates", len(c.TemplateSizes), k)
	}
	median := func(n int) int {
		if n == 0 {
			return min(MedianNodes(data, labelled), maxTemplateNodes)
		}
		return n
	}
	b := templateBounds{nodes: median(c.TemplateNodes)}
	for _, n := range c.TemplateSizes {
		b.sizes = append(b.sizes, median(n))
	}
	return b, nil
}

// of is template t's bound, of k.
func (b templateBounds) of(t, k int) int {
	if len(b.sizes) == 0 {
		return b.nodes
	}
	return b.sizes[t*len(b.sizes)/k]
}

// MedianNodes is the median node count of the graphs data[i], i in idx (the upper of the two
// middle ones for an even count), at least 1: the size of TemplateConfig.TemplateNodes 0.
func MedianNodes(data []*graphs.Graph, idx []int) int {
	n := make([]int, len(idx))
	for k, i := range idx {
		n[k] = data[i].N()
	}
	slices.Sort(n)
	if len(n) == 0 {
		return 1
	}
	return max(1, n[len(n)/2])
}

// balancedWeight is the feature weight at which the structure and feature costs have the same
// mean over data as m reads them: their structure matrices and input features.
func (m *TemplateModel) balancedWeight(data []*graphs.Graph) (float64, error) {
	graph, obs, err := m.inputs(data)
	if err != nil {
		return 0, err
	}
	read := make(graphs.Slice, len(data))
	for i, p := range graph {
		read[i] = &graphs.Graph{Name: data[i].Name, A: obs[i].A, Mu: obs[i].Mu, F: mat.NewDense(p.n, m.readWidth(), m.appendRows(nil, p))}
	}
	b, err := pairwise.BalanceFeatures(read)
	if err != nil {
		return 0, fmt.Errorf("templates: %w", err)
	}
	if !(b.Weight > 0) || math.IsInf(b.Weight, 0) {
		return 0, fmt.Errorf("templates: balanced feature weight %v (structure cost %v, feature cost %v)", b.Weight, b.Structure, b.Features)
	}
	return b.Weight, nil
}

// statisticsWidth is the number of graph statistics the head reads (0 without them).
func (m *TemplateModel) statisticsWidth() int {
	if m.Config.GraphStatistics {
		return graphs.NumStatistics
	}
	return 0
}

// statisticsScale returns the mean and standard deviation (1 where it is 0) of each graph
// statistic over the labelled graphs.
func statisticsScale(data []*graphs.Graph, labelled []int) (shift, scale []float64, err error) {
	cols := make([][]float64, graphs.NumStatistics)
	for _, i := range labelled {
		s, err := graphs.LogStatistics(data[i])
		if err != nil {
			return nil, nil, fmt.Errorf("templates: %w", err)
		}
		for j, x := range s {
			cols[j] = append(cols[j], x)
		}
	}
	shift, scale = make([]float64, len(cols)), make([]float64, len(cols))
	for j, c := range cols {
		shift[j], scale[j] = stat.MeanStdDev(c, nil)
		if !(scale[j] > 0) || math.IsNaN(scale[j]) {
			scale[j] = 1
		}
	}
	return shift, scale, nil
}

// standardizationSample is the number of training graphs whose discrepancies set Shift and
// Scale.
const standardizationSample = 200

// initStandardization sets Shift and Scale from the discrepancies of up to
// standardizationSample of the labelled graphs.
func (m *TemplateModel) initStandardization(data []*graphs.Graph, labelled []int, rng *rand.Rand) error {
	sample := make([]*graphs.Graph, 0, standardizationSample)
	for _, q := range rng.Perm(len(labelled))[:min(len(labelled), standardizationSample)] {
		sample = append(sample, data[labelled[q]])
	}
	d, err := m.Discrepancies(context.Background(), sample, 0)
	if err != nil {
		return err
	}
	K := len(m.Templates)
	m.Shift, m.Scale = make([]float64, K), make([]float64, K)
	for k := 0; k < K; k++ {
		col := mat.Col(nil, k, d)
		mean, std := stat.MeanStdDev(col, nil)
		if !(std > 1e-9) || math.IsNaN(std) {
			std = 1
		}
		m.Shift[k], m.Scale[k] = mean, std
	}
	return nil
}

// glorot fills w with Glorot-uniform weights.
func glorot(w *mat.Dense, rng *rand.Rand) {
	r, c := w.Dims()
	limit := math.Sqrt(6 / float64(r+c))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			w.Set(i, j, (2*rng.Float64()-1)*limit)
		}
	}
}

// initTemplateFeatures sets each template's H to the encoded features of its piece's nodes.
func (m *TemplateModel) initTemplateFeatures(starts []*graphs.Graph, pieces [][]int) error {
	x, err := m.EncodeNodes(starts)
	if err != nil {
		return err
	}
	d := m.features()
	for t := range starts {
		h := mat.NewDense(len(pieces[t]), d, nil)
		for a, i := range pieces[t] {
			h.SetRow(a, x[t].RawRowView(i))
		}
		m.Templates[t].H = h
	}
	return nil
}

// connectedPiece returns up to size nodes of g reached breadth-first from a random node (and,
// when g's component is smaller, from further random nodes), in the order reached.
func connectedPiece(g *graphs.Graph, size int, rng *rand.Rand) []int {
	n := g.N()
	size = min(size, n)
	seen := make([]bool, n)
	var out []int
	for _, s := range rng.Perm(n) {
		if len(out) == size {
			break
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		queue := []int{s}
		for len(queue) > 0 && len(out) < size {
			v := queue[0]
			queue = queue[1:]
			out = append(out, v)
			cols, _ := g.A.Row(v)
			for _, j := range cols {
				if !seen[j] {
					seen[j] = true
					queue = append(queue, int(j))
				}
			}
		}
	}
	return out
}
