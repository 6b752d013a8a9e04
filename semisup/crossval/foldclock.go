package crossval

import (
	"fmt"
	"time"
)

// foldClock times the folds one cross-validation trains, for the line Observe gets after each:
// the folds left and their ETA at the mean time of those trained so far.
type foldClock struct {
	folds, left, trained int
	seconds              float64
}

// newFoldClock counts the folds 1..folds that will train: all but those kept names (nil: none).
func newFoldClock(folds int, kept func(f int) bool) *foldClock {
	c := &foldClock{folds: folds}
	for f := 1; f <= folds; f++ {
		if kept == nil || !kept(f) {
			c.left++
		}
	}
	return c
}

// tick counts a fold trained in seconds and says how many are left and when they will be done.
func (c *foldClock) tick(seconds float64) string {
	c.trained++
	c.left = max(0, c.left-1)
	c.seconds += seconds
	eta := time.Duration(c.seconds / float64(c.trained) * float64(c.left) * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("folds left: %d, eta %s", c.left, eta)
}

// lines are fold r's lines (FoldLines), the first with the folds left and their ETA.
func (c *foldClock) lines(r FoldResult) []string {
	lines := FoldLines(r, c.folds)
	lines[0] += "; " + c.tick(r.Seconds)
	return lines
}
