package observe

import (
	"fmt"
	"time"
)

// Event is what long work tells its observer. It is one of: a training step (Step: after
// every batch of training.Fit or training.Transform), a count of work done (Done of Total:
// discrepancies computed, for instance), or a message worth a log line (Message; Warning for
// a warning). Run is the run, seed or fold the event belongs to where the work has several
// (0-based), else 0.
type Event struct {
	Run     int
	Step    *Progress
	Done    int
	Total   int
	Message string
	Warning bool
}

// Progress is a training step: where an epoch of training stands.
type Progress struct {
	Epoch, Epochs int
	Done, Total   int     // graphs processed in this epoch, and per epoch
	Loss          float64 // mean GWF loss of this epoch's graphs so far
	GraphsPerSec  float64
	Elapsed, ETA  time.Duration // for the whole run (all remaining epochs)
}

// Observer receives the events of long work, one at a time (never concurrently); a nil
// Observer receives none. Every long-running function of the module takes one in its options
// (training.Options, pairwise.Options, fgwsvm.Options, semisup.Options, …).
type Observer func(Event)

// Step reports a training step.
func (o Observer) Step(p Progress) {
	if o != nil {
		o(Event{Step: &p})
	}
}

// Count reports done of total units of work.
func (o Observer) Count(done, total int) {
	if o != nil {
		o(Event{Done: done, Total: total})
	}
}

// Say reports a message (a warning if warning is set), formatted as fmt.Sprintf.
func (o Observer) Say(warning bool, format string, args ...any) {
	if o != nil {
		o(Event{Message: fmt.Sprintf(format, args...), Warning: warning})
	}
}

// InRun returns an observer that passes o the events of run r: their Run set to r.
func (o Observer) InRun(r int) Observer {
	if o == nil {
		return nil
	}
	return func(e Event) {
		e.Run = r
		o(e)
	}
}
