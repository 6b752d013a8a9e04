// Package split assigns items to stratified folds: the one implementation of the module's
// k-fold splits, for the outer cross-validations of every classifier (Folds, the same folds
// for the same seed whichever classifier runs) and the inner ones that choose their settings
// (Stratified with a generator of the caller's, semisup/svm's StratifiedFolds).
package split
