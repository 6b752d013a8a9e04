package crossval

import "github.com/gwf-graphs/gwf/internal/meanstd"

// Score is a mean ± std of accuracies over folds (and seeds).
type Score struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// Summary compares the semi-supervised model with its baselines on the same folds.
type Summary struct {
	Folds          int   `json:"folds"`
	SemiSupervised Score `json:"semi_supervised"`
	Beta0          Score `json:"beta0_head"`
	LogReg         Score `json:"logreg"`
	// SVM is the SVM baseline's score where every fold has it.
	SVM *Score `json:"svm,omitempty"`
	// Wins count the folds where the semi-supervised model scores strictly higher than each
	// baseline (Losses strictly lower).
	WinsBeta0    int `json:"wins_over_beta0"`
	LossesBeta0  int `json:"losses_to_beta0"`
	WinsLogReg   int `json:"wins_over_logreg"`
	LossesLogReg int `json:"losses_to_logreg"`
	// Joint is, with the β = 0 candidate (Selection.Unsupervised), the trained candidates'
	// held-out accuracy (FoldResult.JointAccuracy): the result without that candidate; ChoseBeta0
	// counts the folds where the validation split chose the β = 0 head.
	Joint      *Score `json:"joint,omitempty"`
	ChoseBeta0 int    `json:"chose_beta0,omitempty"`
}

// Beats reports whether the semi-supervised mean is above both baselines' means.
func (s *Summary) Beats() (beta0, logreg bool) {
	return s.SemiSupervised.Mean > s.Beta0.Mean, s.SemiSupervised.Mean > s.LogReg.Mean
}

// Summarize compares the folds that have both baselines; nil if none has.
func Summarize(rs []FoldResult) *Summary {
	var ss, b0, lr, sv, joint []float64
	s := &Summary{}
	for _, r := range rs {
		if r.Beta0 == nil || r.LogReg == nil {
			continue
		}
		ss, b0, lr = append(ss, r.Accuracy), append(b0, r.Beta0.Accuracy), append(lr, r.LogReg.Accuracy)
		if r.JointAccuracy != nil {
			joint = append(joint, *r.JointAccuracy)
		}
		if r.SVM != nil {
			sv = append(sv, r.SVM.Accuracy)
		}
		if r.Choice != nil && r.Choice.Unsupervised {
			s.ChoseBeta0++
		}
		s.WinsBeta0 += b2i(r.Accuracy > r.Beta0.Accuracy)
		s.LossesBeta0 += b2i(r.Accuracy < r.Beta0.Accuracy)
		s.WinsLogReg += b2i(r.Accuracy > r.LogReg.Accuracy)
		s.LossesLogReg += b2i(r.Accuracy < r.LogReg.Accuracy)
	}
	if len(ss) == 0 {
		return nil
	}
	s.Folds = len(ss)
	for _, p := range []struct {
		xs  []float64
		out *Score
	}{{ss, &s.SemiSupervised}, {b0, &s.Beta0}, {lr, &s.LogReg}} {
		p.out.Mean, p.out.Std = meanstd.Of(p.xs)
	}
	if len(sv) == len(ss) {
		s.SVM = &Score{}
		s.SVM.Mean, s.SVM.Std = meanstd.Of(sv)
	}
	if len(joint) == len(ss) {
		s.Joint = &Score{}
		s.Joint.Mean, s.Joint.Std = meanstd.Of(joint)
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
