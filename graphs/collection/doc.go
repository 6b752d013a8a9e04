// Package collection loads a graph collection from where it lives — a bundled dataset, a TU
// Dortmund folder or .zip, or a folder of graph files — and prepares it for training in one
// place: node features, a reproducible subset, size limits, standardized features.
//
// A Spec says what to load and how; Load returns a graphs.Dataset. The command-line tool and
// the notebooks both build a Spec from their flags, so a dataset given the same way is read
// the same way everywhere. The subset is chosen before the graphs are read, so the size limits
// count only the graphs kept: a few hundred graphs of a dataset far larger than the memory
// limit can be tried.
package collection
