package crossval

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/svm"
	"github.com/gwf-graphs/gwf/training"
)

// Unsupervised is the GWF model trained without labels (β = 0) on all graphs, with its
// embeddings after every epoch. No label moves it, so one serves as the baseline of every fold:
// the same head on its embeddings (β = 0), and a logistic regression on its λ.
type Unsupervised struct {
	Z      []*mat.Dense   // Z[e] after epoch e+1
	Head   *semisup.MLP   // the head as NewModel initialises it (before any training)
	Config semisup.Config // the head's configuration (β is 0)
}

// FitUnsupervised trains the GWF model of gwf on data without labels, keeping its embeddings
// after every epoch; the head is cfg's, with β = 0. With cfg's encoder the embeddings are the
// encoder's, trained by the GWF term alone. cfg must keep the GWF term (not NoGWF).
func FitUnsupervised(ctx context.Context, data []*graphs.Graph, classes int, gwf training.Config, cfg semisup.Config, opt semisup.Options) (*Unsupervised, error) {
	m, u, err := newUnsupervised(data, classes, gwf, cfg)
	if err != nil {
		return nil, err
	}
	if err := u.train(ctx, m, data, opt, nil); err != nil {
		return nil, err
	}
	return u, nil
}

// train trains m, FitUnsupervised's model (new, or resumed after the epochs of u.Z), without
// labels to its last epoch, appending every epoch's embeddings to u.Z and then calling
// epochDone (if set) with the model.
func (u *Unsupervised) train(ctx context.Context, m *semisup.Model, data []*graphs.Graph, opt semisup.Options, epochDone func(*semisup.Model) error) error {
	opt.EpochDone = func(m *semisup.Model) error {
		u.Z = append(u.Z, mat.DenseCopyOf(m.GWF.Z))
		if epochDone != nil {
			return epochDone(m)
		}
		return nil
	}
	if err := semisup.Fit(ctx, m, data, semisup.NoLabels(len(data)), opt); err != nil {
		return fmt.Errorf("crossval: unsupervised model: %w", err)
	}
	if len(u.Z) == 0 {
		return errors.New("crossval: the unsupervised model trained no epoch")
	}
	return nil
}

// newUnsupervised is the untrained model FitUnsupervised trains and its Unsupervised without
// embeddings: the head as initialised, the configuration with β = 0.
func newUnsupervised(data []*graphs.Graph, classes int, gwf training.Config, cfg semisup.Config) (*semisup.Model, *Unsupervised, error) {
	cfg.Beta = 0
	joint := cfg
	joint.Head.Steps = 0
	m, err := semisup.NewModel(data, classes, gwf, joint)
	if err != nil {
		return nil, nil, err
	}
	return m, &Unsupervised{Head: m.Head.Clone(), Config: cfg}, nil
}

// Baseline is a baseline's result on one held-out fold.
type Baseline struct {
	Accuracy float64 `json:"accuracy"`
	// Epoch is the unsupervised model's epoch whose embeddings it read (chosen on the validation
	// split for the head, the last for the logistic regression).
	Epoch int `json:"epoch"`
	// C is the logistic regression's inverse L2 strength or the SVM's C, chosen by inner
	// cross-validation; Gamma the SVM's kernel width, relative to the median squared distance.
	C         float64 `json:"c,omitempty"`
	Gamma     float64 `json:"gamma,omitempty"`
	Predicted []int   `json:"predicted_per_class"`
	// TrainAccuracy is the accuracy on the fold's labelled graphs; ValidationAccuracy and
	// ValidationLoss (mean cross-entropy) the head's on its validation split, where it was chosen.
	TrainAccuracy      float64 `json:"train_accuracy,omitempty"`
	ValidationAccuracy float64 `json:"validation_accuracy,omitempty"`
	ValidationLoss     float64 `json:"validation_loss,omitempty"`
}

// HeadFold is the β = 0 baseline on one fold, chosen as Select chooses: the head is trained
// alone on the embeddings of every epoch with the labels minus sel's validation split, the epoch
// that scores best on the validation graphs is kept (refitted on all the labels with
// sel.Refit), and its predictions on the graphs test are scored. Labels of the graphs in test
// are not read before scoring.
func (u *Unsupervised) HeadFold(labels, test []int, sel Selection) (Baseline, []int, error) {
	train := hide(labels, test)
	inner, val := ValidationSplit(train, sel.fraction(), sel.Seed)
	if len(val) == 0 {
		return Baseline{}, nil, errNoValidation
	}
	var best *semisup.MLP
	bestEpoch, bestAcc, bestLoss := 0, -1.0, 0.0
	for e, z := range u.Z {
		h := u.Head.Clone()
		x := u.Config.HeadInput(z)
		if err := h.Train(x, inner, u.Config.Head); err != nil {
			return Baseline{}, nil, fmt.Errorf("β = 0 head, epoch %d: %w", e+1, err)
		}
		acc, loss := scoreRows(semisup.Probabilities(h.Logits(x)), val, train)
		if acc > bestAcc || (acc == bestAcc && loss < bestLoss) {
			best, bestEpoch, bestAcc, bestLoss = h, e+1, acc, loss
		}
	}
	x := u.Config.HeadInput(u.Z[bestEpoch-1])
	if sel.Refit {
		best = u.Head.Clone()
		if err := best.Train(x, train, u.Config.Head); err != nil {
			return Baseline{}, nil, fmt.Errorf("β = 0 head, refit: %w", err)
		}
	}
	pred := best.Predict(x)
	b := Baseline{Epoch: bestEpoch, ValidationAccuracy: bestAcc, ValidationLoss: bestLoss, TrainAccuracy: labelledAccuracy(pred, train)}
	b.Accuracy, b.Predicted = scoreOn(pred, labels, test, u.Head.Classes())
	return b, subset.Ints(pred, test), nil
}

// LogRegFold is the logistic-regression baseline on one fold: multinomial logistic regression
// with L2 on λ = softmax(z) of the unsupervised model's last epoch, trained on the labelled
// graphs outside test, its C chosen from grid by stratified inner cross-validation on them
// (innerFolds folds, seeded). Labels of the graphs in test are not read before scoring.
func (u *Unsupervised) LogRegFold(labels, test []int, grid []float64, innerFolds int, seed uint64) (Baseline, []int, error) {
	train, lambda, rows := u.lastLambda(labels, test)
	x, y := subset.Rows(lambda, rows), subset.Ints(train, rows)
	classes := u.Head.Classes()
	c, err := semisup.ChooseC(x, y, classes, grid, innerFolds, seed)
	if err != nil {
		return Baseline{}, nil, err
	}
	lr, err := semisup.FitLogReg(x, y, classes, c)
	if err != nil {
		return Baseline{}, nil, err
	}
	pred := lr.Predict(lambda)
	b := Baseline{Epoch: len(u.Z), C: c}
	b.Accuracy, b.Predicted = scoreOn(pred, labels, test, classes)
	return b, subset.Ints(pred, test), nil
}

// lastLambda is what the baselines on λ read for a fold: the labels with test's hidden, λ of
// the unsupervised model's last epoch, and the rows of the labelled graphs outside test.
func (u *Unsupervised) lastLambda(labels, test []int) (train []int, lambda *mat.Dense, rows []int) {
	train = hide(labels, test)
	return train, training.Lambda(u.Z[len(u.Z)-1]), labelled(train)
}

// SVMGrid is the grid of SVMFold: kernel widths relative to the median squared distance
// between embeddings, and C.
func SVMGrid() (gammas, cs []float64) {
	return []float64{0.01, 0.1, 1, 10, 100}, []float64{0.01, 0.1, 1, 10, 100, 1000}
}

// SVMFold is GDL's protocol on one fold (Vincent-Cuaz et al., ICML 2021: an SVM on the
// embeddings of a model trained without labels): an SVM on the Gaussian kernel
// exp(−γ·‖λ_i − λ_j‖²/median) of the unsupervised model's last-epoch λ, trained on the labelled
// graphs outside test, γ and C chosen from SVMGrid by stratified inner
// cross-validation on them (innerFolds folds, seeded). Labels of the graphs in test are not read
// before scoring.
func (u *Unsupervised) SVMFold(ctx context.Context, labels, test []int, innerFolds int, seed uint64) (Baseline, []int, error) {
	return u.SVMFoldEpochs(ctx, labels, test, nil, innerFolds, 1, seed)
}

// SVMFoldEpochs is SVMFold with the epoch chosen too: the same inner cross-validation (the same
// inner folds for every epoch) chooses, with γ and C, which of epochs' λ the SVM reads — the
// epoch of the best inner accuracy, ties to the earlier. epochs are 1-based and at most
// len(u.Z); none means the last epoch alone (SVMFold). Training longer than the paper's 10
// epochs sharpens λ (nearly uniform after 10), and where the class shows depends on the data:
// the choice is made on the training graphs alone. With repeats above 1 the inner
// cross-validation is repeated over that many fold assignments (seeds seed, seed+1, ...) and
// candidates are ranked by the mean accuracy: near-equal candidates are then not chosen by the
// noise of one split.
func (u *Unsupervised) SVMFoldEpochs(ctx context.Context, labels, test, epochs []int, innerFolds, repeats int, seed uint64) (Baseline, []int, error) {
	b, pred, err := u.svmEpochs(ctx, labels, test, epochs, innerFolds, repeats, seed)
	if err != nil {
		return Baseline{}, nil, err
	}
	return b, subset.Ints(pred, test), nil
}

// svmEpochs is SVMFoldEpochs with the predictions of every graph.
func (u *Unsupervised) svmEpochs(ctx context.Context, labels, test, epochs []int, innerFolds, repeats int, seed uint64) (Baseline, []int, error) {
	if len(epochs) == 0 {
		epochs = []int{len(u.Z)}
	}
	train := hide(labels, test)
	rows := labelled(train)
	n := len(rows)
	y := subset.Ints(train, rows)
	classes := u.Head.Classes()
	folds, err := svm.RepeatedStratifiedFolds(y, min(innerFolds, n), repeats, seed)
	if err != nil {
		return Baseline{}, nil, fmt.Errorf("svm baseline: %w", err)
	}
	gammas, cs := SVMGrid()
	var best svm.ExpChoice
	var bestD *mat.SymDense
	bestEpoch := 0
	for _, e := range epochs {
		if e < 1 || e > len(u.Z) || u.Z[e-1] == nil {
			return Baseline{}, nil, fmt.Errorf("svm baseline: epoch %d: the model trained %d", e, len(u.Z))
		}
		x := subset.Rows(training.Lambda(u.Z[e-1]), rows)
		d := mat.NewSymDense(n, svm.SquaredDistances(x, x).RawMatrix().Data)
		ch, err := svm.SelectExp(ctx, d, y, classes, gammas, cs, folds...)
		if err != nil {
			return Baseline{}, nil, fmt.Errorf("svm baseline, epoch %d: %w", e, err)
		}
		if bestEpoch == 0 || ch.Accuracy > best.Accuracy {
			best, bestD, bestEpoch = ch, d, e
		}
	}
	lambda := training.Lambda(u.Z[bestEpoch-1])
	x := subset.Rows(lambda, rows)
	m, err := svm.Fit(svm.ExpKernelSym(bestD, best.Scale()), y, classes, best.C)
	if err != nil {
		return Baseline{}, nil, fmt.Errorf("svm baseline: %w", err)
	}
	pred := m.Predict(svm.ExpKernel(svm.SquaredDistances(lambda, x), best.Scale()))
	b := Baseline{Epoch: bestEpoch, C: best.C, Gamma: best.Gamma, ValidationAccuracy: best.Accuracy}
	b.Accuracy, b.Predicted = scoreOn(pred, labels, test, classes)
	return b, pred, nil
}
