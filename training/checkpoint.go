package training

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
)

// Position is how far a model's training got: Epochs completed, plus Done graphs of the next
// epoch when it stopped at a batch boundary (Model.Partial).
type Position struct{ Epochs, Done int }

// PositionOf is the position of m.
func PositionOf(m *Model) Position {
	p := Position{Epochs: len(m.History)}
	if m.Partial != nil {
		p.Done = m.Partial.Done
	}
	return p
}

// Describe says how far p got of epochs epochs of graphs graphs each ("after 3 of 10 epochs
// and 40 of 188 graphs of epoch 4").
func (p Position) Describe(epochs, graphs int) string {
	s := fmt.Sprintf("after %d of %d epochs", p.Epochs, epochs)
	if p.Done > 0 {
		s += fmt.Sprintf(" and %d of %d graphs of epoch %d", p.Done, graphs, p.Epochs+1)
	}
	return s
}

// FitFile is Fit with m kept in the file path, which holds m when it is called (Save it first,
// which also tells an unwritable path before any training): the file is rewritten atomically
// after every epoch and at the batch boundary where ctx stopped training, so that a killed
// run loses at most an epoch and an interrupted one nothing. Load and Fit continue it.
// opt.EpochDone, if set, is called after each epoch's save. The returned position is the
// file's, which a failed save leaves behind m's.
func FitFile(ctx context.Context, m *Model, src graphs.Source, path string, opt Options) (Position, error) {
	saved := PositionOf(m)
	user := opt.EpochDone
	opt.EpochDone = func(m *Model) error {
		if err := m.Save(path); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		saved = PositionOf(m)
		if user != nil {
			return user(m)
		}
		return nil
	}
	err := Fit(ctx, m, src, opt)
	if err != nil && ctx.Err() != nil && m.Partial != nil {
		if serr := m.Save(path); serr != nil {
			return saved, fmt.Errorf("%w (and the checkpoint at the interruption: %v)", err, serr)
		}
		saved = PositionOf(m)
	}
	return saved, err
}
