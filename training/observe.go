package training

import "github.com/gwf-graphs/gwf/layers/observe"

// Event is what long work tells its observer (observe.Event; kept here for the callers that
// name it through the trainer).
type Event = observe.Event

// Observer receives the events of long work, one at a time (observe.Observer).
type Observer = observe.Observer
