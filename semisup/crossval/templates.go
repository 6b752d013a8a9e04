package crossval

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// MethodTemplates names the template model in reports.
const MethodTemplates = "templates"

// TemplatesOptions say how the template model's experiments run: Folds stratified folds seeded
// by Seed (semisup.Folds: the folds of every classifier of the module with the same seed),
// Workers solving transports in parallel, Observe hearing of progress. Dir, when set, keeps
// each finished fold (templates-fold<f>.json): a rerun with the same data and settings reuses
// it, so that a killed cross-validation loses at most the fold it was training.
type TemplatesOptions struct {
	Folds   int
	Seed    uint64
	Workers int
	Observe training.Observer
	Dir     string
}

// TemplatesFold is one held-out fold of the template model.
type TemplatesFold struct {
	Fold      int     `json:"fold"`
	Accuracy  float64 `json:"accuracy"`
	BestEpoch int     `json:"best_epoch"`
	// BestEpochs are the epochs each member of an ensemble keeps (BestEpoch is the first's).
	BestEpochs []int `json:"best_epochs,omitempty"`
	// Encoder is the encoder the fold's training graphs chose, with encoder auto; NodeFeatures
	// the node features they chose (data or none: the structure alone), with node features auto.
	Encoder      semisup.EncoderKind       `json:"encoder,omitempty"`
	NodeFeatures semisup.NodeFeatureSource `json:"node_features,omitempty"`
	// FeatureWeight is the weight the fold's first member measured, with Config.BalanceWeight.
	FeatureWeight float64 `json:"feature_weight,omitempty"`
	// TemplateNodes is the median graph size that bounded the fold's templates (or a group of
	// them), where the configuration left a size to it (0).
	TemplateNodes int `json:"template_nodes,omitempty"`
	// WLLabelColumns are the one-hot Weisfeiler-Lehman label columns the fold's first member
	// read (semisup.TemplateModel.WLLabelColumns): 0 where Config.WLLabels found no categorical
	// node features to label.
	WLLabelColumns int `json:"wl_label_columns,omitempty"`
	// ValidationAccuracy is the mean over the members of the validation accuracy of the epoch
	// each keeps (semisup.TemplateEnsemble.ValidationAccuracy; nil without a validation split):
	// training-side evidence, so that runs of two settings on the same folds can be compared,
	// or one chosen per fold, without the held-out labels.
	ValidationAccuracy *float64 `json:"validation_accuracy,omitempty"`
	Train              int      `json:"train"`
	Test               int      `json:"test"`
	Seconds            float64  `json:"seconds"`
	// Graphs are the held-out graphs (indices into the data) and Predictions the classes
	// predicted for them, in that order (absent from folds kept before they were recorded).
	Graphs      []int `json:"graphs,omitempty"`
	Predictions []int `json:"predictions,omitempty"`
}

// TemplatesReport is what `gwf semisup --model templates` reports: a cross-validation (Folds)
// or one split of labelled and unlabelled graphs (Labeled, Scored).
type TemplatesReport struct {
	Method   string `json:"method"`
	Dataset  string `json:"dataset"`
	Graphs   int    `json:"graphs"`
	Classes  int    `json:"classes"`
	Protocol string `json:"protocol"`
	// FoldSeed is the seed of a cross-validation's folds (0 for one split).
	FoldSeed uint64                 `json:"fold_seed,omitempty"`
	Config   semisup.TemplateConfig `json:"config"`
	// Templates is the number of templates (Config.Templates, or the default per class).
	Templates int             `json:"templates"`
	Folds     []TemplatesFold `json:"folds,omitempty"`
	Accuracy  MeanStd         `json:"accuracy"`
	// Confusion counts a cross-validation's held-out graphs by class and prediction (nil where
	// a kept fold has no predictions).
	Confusion *ConfusionMatrix `json:"confusion,omitempty"`
	Labeled   int              `json:"labeled,omitempty"`
	Scored    int              `json:"scored,omitempty"`
	// Encoder and NodeFeatures are what one split's training graphs chose, where the
	// configuration leaves them to choose (auto); a cross-validation's folds say theirs.
	Encoder      semisup.EncoderKind       `json:"encoder,omitempty"`
	NodeFeatures semisup.NodeFeatureSource `json:"node_features,omitempty"`
	// FeatureWeight is the weight one split's first member measured, with Config.BalanceWeight.
	FeatureWeight float64 `json:"feature_weight,omitempty"`
	// TemplateNodes is one split's as TemplatesFold's.
	TemplateNodes int `json:"template_nodes,omitempty"`
	// WLLabelColumns are one split's as TemplatesFold's.
	WLLabelColumns int `json:"wl_label_columns,omitempty"`
	// SelfTraining is one split's self-training (Config.PseudoLabels), where it ran.
	SelfTraining *SelfTrainingReport `json:"self_training,omitempty"`
	Seconds      float64             `json:"seconds"`
}

// SelfTrainingReport is what self-training did on one split: how many graphs without a label
// trained with a pseudo-label and how many of those (whose hidden label is known) it got
// right, and the accuracy, on the same scored graphs, of the first round's model trained on
// the labels alone.
type SelfTrainingReport struct {
	PseudoLabelled      int     `json:"pseudo_labelled"`
	PseudoLabelAccuracy float64 `json:"pseudo_label_accuracy"`
	LabelsAloneAccuracy float64 `json:"labels_alone_accuracy"`
}

// FoldAccuracies are the folds' accuracies, in fold order (none for one split).
func (r *TemplatesReport) FoldAccuracies() []float64 {
	xs := make([]float64, len(r.Folds))
	for i, f := range r.Folds {
		xs[i] = f.Accuracy
	}
	return xs
}

// WriteText writes the report for a person.
func (r *TemplatesReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "dataset %s: %d graphs, %d classes; %s\n", r.Dataset, r.Graphs, r.Classes, r.Protocol)
	fmt.Fprintf(w, "template model: %s\n", r.describeModel())
	for _, f := range r.Folds {
		fmt.Fprintf(w, "  fold %2d: %6.2f %%  (%d train, %d test, %s kept, %.0f s)\n", f.Fold, 100*f.Accuracy, f.Train, f.Test, epochsKept(f), f.Seconds)
	}
	if err := r.Confusion.writeText(w); err != nil {
		return err
	}
	switch {
	case r.Folds != nil:
		fmt.Fprintf(w, "accuracy: %.2f ± %.2f %% over %d folds (%.0f s)\n", 100*r.Accuracy.Mean, 100*r.Accuracy.Std, len(r.Folds), r.Seconds)
	case r.Scored == 0:
		fmt.Fprintf(w, "trained on the %d labelled graphs; no label was hidden, none scored (%.0f s%s)\n", r.Labeled, r.Seconds, chosenNote(r.Encoder, r.NodeFeatures))
	default:
		fmt.Fprintf(w, "accuracy: %.2f %% on the %d graphs whose labels were hidden (%d labelled; %.0f s%s)\n", 100*r.Accuracy.Mean, r.Scored, r.Labeled, r.Seconds, chosenNote(r.Encoder, r.NodeFeatures))
		if st := r.SelfTraining; st != nil {
			fmt.Fprintf(w, "self-training: %d graphs pseudo-labelled (%.2f %% of them right); the model on the labels alone scored %.2f %% on the same graphs\n", st.PseudoLabelled, 100*st.PseudoLabelAccuracy, 100*st.LabelsAloneAccuracy)
		}
	}
	_, err := fmt.Fprint(w)
	return err
}

// describeModel names the model's settings in a line.
func (r *TemplatesReport) describeModel() string {
	c := r.Config
	head := fmt.Sprintf("head %v", c.Hidden)
	if c.GraphStatistics {
		head += " on the discrepancies and graph statistics"
	}
	wl := fmt.Sprintf("%d WL rounds", c.WLRounds)
	if c.WLLabels > 0 {
		wl = fmt.Sprintf("WL labels of %d iterations", c.WLLabels)
		if c.WLEdgeLabels {
			wl += " with the edge labels"
		}
	}
	return fmt.Sprintf("%d templates of ≤ %s, %s encoder %v, %s, structure %s, feature weight %g, %s, %d epochs, %d members",
		r.Templates, TemplateSize(c), c.Encoder, c.EncoderHidden, wl, structureName(c.Structure), c.FeatureWeight, head, c.Epochs, c.MemberCount())
}

// epochsKept names the epoch each member kept (and the encoder chosen, with encoder auto).
func epochsKept(f TemplatesFold) string {
	kept := fmt.Sprintf("epochs %v", f.BestEpochs)
	if len(f.BestEpochs) < 2 {
		kept = fmt.Sprintf("epoch %d", f.BestEpoch)
	}
	if c := chosen(f.Encoder, f.NodeFeatures); c != "" {
		kept = c + ", " + kept
	}
	if f.FeatureWeight > 0 {
		kept = fmt.Sprintf("feature weight %.4g, %s", f.FeatureWeight, kept)
	}
	if f.TemplateNodes > 0 {
		kept = fmt.Sprintf("the median size %d nodes, %s", f.TemplateNodes, kept)
	}
	if f.WLLabelColumns > 0 {
		kept = fmt.Sprintf("%d WL label columns, %s", f.WLLabelColumns, kept)
	}
	return kept
}

// chosen names what the training graphs chose ("structure alone, encoder gin"; "" for nothing).
func chosen(encoder semisup.EncoderKind, features semisup.NodeFeatureSource) string {
	var s []string
	switch features {
	case "":
	case semisup.NodeFeaturesNone:
		s = append(s, "structure alone")
	default:
		s = append(s, "node features")
	}
	if encoder != "" {
		s = append(s, "encoder "+string(encoder))
	}
	return strings.Join(s, ", ")
}

// chosenNote is chosen as a note after a line's figures ("; chosen: ..."), or "".
func chosenNote(encoder semisup.EncoderKind, features semisup.NodeFeatureSource) string {
	if c := chosen(encoder, features); c != "" {
		return "; chosen: " + c
	}
	return ""
}

// choices are what an ensemble trained on data under cfg chose where cfg left it to choose:
// its encoder under encoder auto and its node features where it chose them ("" otherwise).
func choices(cfg semisup.TemplateConfig, data []*graphs.Graph, m *semisup.TemplateEnsemble) (encoder semisup.EncoderKind, features semisup.NodeFeatureSource) {
	if cfg.Encoder == semisup.EncoderAuto {
		encoder = m.Members[0].Config.Encoder
	}
	if cfg.ChoosesNodeFeatures(data) {
		features = m.Members[0].Config.NodeFeatures
	}
	return encoder, features
}

// TemplateSize names the bound on a template's size that c sets: "N nodes", or the median
// graph size for TemplateNodes 0; with TemplateSizes, each group's in turn.
func TemplateSize(c semisup.TemplateConfig) string {
	name := func(n int) string {
		if n == 0 {
			return "the median graph size"
		}
		return fmt.Sprintf("%d nodes", n)
	}
	if len(c.TemplateSizes) == 0 {
		return name(c.TemplateNodes)
	}
	groups := make([]string, len(c.TemplateSizes))
	for g, n := range c.TemplateSizes {
		groups[g] = name(n)
	}
	return strings.Join(groups, ", ") + " (in equal groups)"
}

// medianSize is the template size an ensemble's first member took from its graphs where cfg
// leaves it to the median (0 otherwise: cfg states it).
func medianSize(cfg semisup.TemplateConfig, m *semisup.TemplateEnsemble) int {
	resolved := m.Members[0].Config
	if len(cfg.TemplateSizes) > 0 {
		if g := slices.Index(cfg.TemplateSizes, 0); g >= 0 {
			return resolved.TemplateSizes[g]
		}
		return 0
	}
	if cfg.TemplateNodes != 0 {
		return 0
	}
	return resolved.TemplateNodes
}

// measuredWeight is the feature weight an ensemble's first member measured on its graphs where
// cfg balances it (0 otherwise: cfg states it).
func measuredWeight(cfg semisup.TemplateConfig, m *semisup.TemplateEnsemble) float64 {
	if !cfg.BalanceWeight {
		return 0
	}
	return m.Members[0].FeatureWeight()
}

func structureName(s graphs.Structure) string {
	if s == "" {
		return string(graphs.Adjacency)
	}
	return string(s)
}

// CrossValidateTemplates scores the template model by stratified cross-validation on the
// labelled graphs of ds (labels[i], or semisup.Unlabeled): per fold, a model trained on the
// other folds (its epoch chosen on a validation split of those, cfg.Validation) predicts the
// held-out graphs with a forward pass. No held-out label is read before scoring.
func CrossValidateTemplates(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, cfg semisup.TemplateConfig, opt TemplatesOptions) (*TemplatesReport, error) {
	start := time.Now()
	fold, err := semisup.Folds(labels, opt.Folds, opt.Seed)
	if err != nil {
		return nil, err
	}
	if opt.Dir != "" { // made now, not found missing when the first fold's training is done
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("crossval: %w", err)
		}
	}
	rep := &TemplatesReport{Method: MethodTemplates, Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes,
		Protocol: fmt.Sprintf("%d-fold stratified cross-validation (fold seed %d)", opt.Folds, opt.Seed), FoldSeed: opt.Seed, Config: cfg,
		Templates: cfg.TemplateCount(classes)}
	want := templatesFoldRecord{Config: cfg, Folds: opt.Folds, Seed: opt.Seed, Labels: labelsFingerprint(labels), Graphs: len(ds.Graphs), Version: buildinfo.Version()}
	clock := newFoldClock(opt.Folds, func(f int) bool {
		_, _, ok := savedTemplatesFold(opt.Dir, f, want)
		return opt.Dir != "" && ok
	})
	var accs []float64
	for f := 0; f < opt.Folds; f++ {
		var train, test []*graphs.Graph
		var trainLabels, testLabels, held []int
		for i, g := range ds.Graphs {
			switch {
			case labels[i] == semisup.Unlabeled:
			case fold[i] == f:
				test, testLabels, held = append(test, g), append(testLabels, labels[i]), append(held, i)
			default:
				train, trainLabels = append(train, g), append(trainLabels, labels[i])
			}
		}
		rec := want
		if opt.Dir != "" {
			if r, version, ok := savedTemplatesFold(opt.Dir, f+1, rec); ok {
				accs = append(accs, r.Accuracy)
				rep.Folds = append(rep.Folds, r)
				opt.Observe.Say(false, "fold %d of %d: %.2f %% (kept in %s)", f+1, opt.Folds, 100*r.Accuracy, templatesFoldPath(opt.Dir, f+1))
				if version != rec.Version {
					// The settings match, but another build may train them otherwise: say so, and keep the fold.
					opt.Observe.Say(true, "fold %d was kept by gwf %s, this is %s: its result is reused as it is (delete %s to train it again)",
						f+1, orUnknown(version), rec.Version, templatesFoldPath(opt.Dir, f+1))
				}
				continue
			}
		}
		t0 := time.Now()
		m, err := trainTemplates(ctx, train, trainLabels, classes, cfg, opt.Workers, opt.Observe.InRun(f))
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred, err := m.Predict(ctx, test, opt.Workers)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		acc := accuracyOf(pred, testLabels)
		accs = append(accs, acc)
		r := TemplatesFold{Fold: f + 1, Accuracy: acc, BestEpoch: m.Members[0].BestEpoch, Train: len(train), Test: len(test), Seconds: time.Since(t0).Seconds(),
			Graphs: held, Predictions: pred}
		if len(m.Members) > 1 {
			r.BestEpochs = m.BestEpochs()
		}
		r.Encoder, r.NodeFeatures = choices(cfg, train, m)
		r.FeatureWeight, r.WLLabelColumns = measuredWeight(cfg, m), m.Members[0].WLLabelColumns()
		r.TemplateNodes = medianSize(cfg, m)
		if v := m.ValidationAccuracy(); !math.IsNaN(v) {
			r.ValidationAccuracy = &v
		}
		rep.Folds = append(rep.Folds, r)
		if opt.Dir != "" {
			rec.Result = r
			if err := saveTemplatesFold(opt.Dir, rec); err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
		}
		opt.Observe.Say(false, "fold %d of %d: %.2f %% (%s kept, %.0f s; %s)", f+1, opt.Folds, 100*acc, epochsKept(r), r.Seconds, clock.tick(r.Seconds))
	}
	mean, std := meanstd.Of(accs)
	rep.Accuracy, rep.Seconds = MeanStd{Mean: mean, Std: std}, time.Since(start).Seconds()
	rep.Confusion = NewConfusion(ds, labels, classes, rep.HeldOut())
	return rep, nil
}

// FractionTemplates trains a template model (cfg.Members of them) on the labels frac keeps
// (semisup.KeepLabels: a stratified share, or the labels as given) and predicts every graph;
// the accuracy is on the graphs whose labels it hid. It returns the report, the model and the
// split.
func FractionTemplates(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, cfg semisup.TemplateConfig, frac Fraction, opt TemplatesOptions) (*TemplatesReport, *semisup.TemplateEnsemble, Split, error) {
	start := time.Now()
	if err := frac.check(); err != nil {
		return nil, nil, Split{}, err
	}
	keep := frac.keep(labels)
	m, err := trainTemplates(ctx, ds.Graphs, keep, classes, cfg, opt.Workers, opt.Observe)
	if err != nil {
		return nil, nil, Split{}, err
	}
	m.Features = &ds.Encoding
	pred, err := m.Predict(ctx, ds.Graphs, opt.Workers)
	if err != nil {
		return nil, nil, Split{}, err
	}
	s := Split{Train: keep, Predicted: pred}
	s.Accuracy, s.Scored = hiddenAccuracy(pred, labels, keep)
	protocol := fmt.Sprintf("labelled fraction %g (seed %d)", frac.Share, frac.Seed)
	if frac.Given {
		protocol = "the labels as given"
	}
	rep := &TemplatesReport{Method: MethodTemplates, Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Protocol: protocol, Config: cfg,
		Templates: cfg.TemplateCount(classes), Accuracy: MeanStd{Mean: s.Accuracy}, Labeled: s.Labelled(), Scored: s.Scored, Seconds: time.Since(start).Seconds()}
	rep.Encoder, rep.NodeFeatures = choices(cfg, ds.Graphs, m)
	rep.FeatureWeight, rep.WLLabelColumns = measuredWeight(cfg, m), m.Members[0].WLLabelColumns()
	rep.TemplateNodes = medianSize(cfg, m)
	if st := m.SelfTraining; st != nil {
		alone, _ := hiddenAccuracy(st.LabelsAlone, labels, keep)
		rep.SelfTraining = &SelfTrainingReport{PseudoLabelled: st.PseudoLabelled(), PseudoLabelAccuracy: pseudoAccuracy(st.Pseudo, labels), LabelsAloneAccuracy: alone}
	}
	return rep, m, s, nil
}

// hiddenAccuracy is the share of the graphs whose label keep hid (and labels has) that pred
// classes right, and their number.
func hiddenAccuracy(pred, labels, keep []int) (float64, int) {
	right, scored := 0, 0
	for i, l := range labels {
		if keep[i] == semisup.Unlabeled && l != semisup.Unlabeled {
			scored++
			if pred[i] == l {
				right++
			}
		}
	}
	if scored == 0 {
		return 0, 0
	}
	return float64(right) / float64(scored), scored
}

// pseudoAccuracy is the share of the pseudo-labelled graphs whose hidden label is known that
// their pseudo-label classes right (0 for none).
func pseudoAccuracy(pseudo, labels []int) float64 {
	right, known := 0, 0
	for i, c := range pseudo {
		if c != semisup.Unlabeled && labels[i] != semisup.Unlabeled {
			known++
			if c == labels[i] {
				right++
			}
		}
	}
	if known == 0 {
		return 0
	}
	return float64(right) / float64(known)
}

// trainTemplates trains cfg.Members template models (semisup.TrainTemplates).
func trainTemplates(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg semisup.TemplateConfig, workers int, observe training.Observer) (*semisup.TemplateEnsemble, error) {
	return semisup.TrainTemplates(ctx, data, labels, classes, cfg, semisup.TemplateOptions{Workers: workers, Observe: observe})
}

// accuracyOf is the share of pred equal to truth.
func accuracyOf(pred, truth []int) float64 {
	right := 0
	for i, p := range pred {
		if p == truth[i] {
			right++
		}
	}
	return float64(right) / float64(len(pred))
}

// orUnknown is version, or "an unrecorded version" for files kept before builds were recorded.
func orUnknown(version string) string {
	if version == "" {
		return "an unrecorded version"
	}
	return version
}
