// Package progresslog logs the progress of long work on a logrus logger, with its rate and
// ETA: training and transform mode (training.Progress; on a terminal, a bar redrawn on one
// line) and counted work such as pairwise discrepancies (Counts). The gwf command logs its
// progress with it; a program passes the same callbacks to the library's options:
//
//	opt := training.Options{Progress: progresslog.New(log, "training", nil).Report}
package progresslog
