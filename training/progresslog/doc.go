// Package progresslog logs what long work reports (training.Event) on a logrus logger: the
// steps of training and transform mode with their rate and ETA (on a terminal, a bar redrawn
// on one line), counted work such as pairwise discrepancies, and messages. The gwf command
// observes all its work with it; a program passes the same observer to the library's options:
//
//	opt := training.Options{Observe: progresslog.Observer(log, "training", 1, nil)}
package progresslog
