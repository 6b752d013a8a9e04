package crossval

import (
	"fmt"
	"time"
)

// foldClock times the folds one cross-validation trains, for the line Observe gets after each
// (CVOptions.done): the folds left and their ETA at the mean time of those trained so far.
type foldClock struct {
	folds, left, trained int
	seconds              float64
}

// newFoldClock counts the folds of opt that will train: all but those opt.Skip names.
func newFoldClock(opt CVOptions) *foldClock {
	c := &foldClock{folds: opt.Folds}
	for f := 1; f <= opt.Folds; f++ {
		if opt.Skip == nil || !opt.Skip(f) {
			c.left++
		}
	}
	return c
}

// lines are fold r's lines (FoldLines), the first with the folds left and their ETA.
func (c *foldClock) lines(r FoldResult) []string {
	c.trained++
	c.left = max(0, c.left-1)
	c.seconds += r.Seconds
	eta := time.Duration(c.seconds / float64(c.trained) * float64(c.left) * float64(time.Second)).Round(time.Second)
	lines := FoldLines(r, c.folds)
	lines[0] += fmt.Sprintf("; folds left: %d, eta %s", c.left, eta)
	return lines
}
