// Package experiment holds the reports of graph-classification experiments as a library: the
// JSON that `gwf classify --json` writes for each classifier (GWFReport for the semi-supervised
// GWF model, SVMReport for the SVM on FGW discrepancies), reading a report back (Read), and
// pooling the folds of reports that differ only in their seeds into one mean ± std (Pool), as
// `gwf pool` does.
//
// The reports' JSON is stable: files written by earlier versions read back, and a report of
// the GWF model names no method (it predates the SVM).
package experiment
