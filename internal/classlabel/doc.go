// Package classlabel holds what every classifier of the module says about class labels: the
// mark of a graph without one (Unlabeled) and the map from class indices to the data's own
// labels that a classifier file keeps (ClassLabels). semisup and semisup/fgwsvm share it
// without importing each other.
package classlabel
