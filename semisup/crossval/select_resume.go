package crossval

import "github.com/gwf-graphs/gwf/semisup"

// selectProgress is where Select stands after an epoch: what is saved, and resumed from.
type selectProgress struct {
	// Candidate is the candidate in training, or len(Selection.Candidates) once all are.
	Candidate int
	// Model is that candidate's model after its last epoch (nil once all are trained), and
	// Curve its validation accuracies so far.
	Model *semisup.Model
	Curve []float64
	// Best is the best epoch's model so far, and Choice the choice so far (its Curves are the
	// trained candidates').
	Best   *semisup.Model
	Choice Choice
}

// selectResume, in Options, resumes Select from saved progress (from, when set) and saves its
// progress after every epoch: one fold of a cross-validation with a fold directory.
type selectResume struct {
	from *selectProgress
	save func(selectProgress) error
}

// keep saves p; a nil resume saves nothing.
func (r *selectResume) keep(p selectProgress) error {
	if r == nil || r.save == nil {
		return nil
	}
	return r.save(p)
}
