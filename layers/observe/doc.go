// Package observe is how long work of the module tells a caller what it is doing: an Event (a
// training step, a count of work done, or a message) passed to an Observer, one at a time.
//
// It sits at the bottom of the module and imports nothing of it, so that every long-running
// function, from the pairwise discrepancies of layers/pairwise to the trainer and the
// cross-validations above it, takes the same Observer in its options, and one function —
// training/progresslog's, or a program's own — observes them all.
package observe
