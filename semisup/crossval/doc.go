// Package crossval runs graph-classification experiments and holds their reports, as
// `gwf classify`, `gwf predict`, `gwf pool` and notebooks/table2 use them:
//
//   - CrossValidate runs the stratified k-fold protocol of the paper's Table 2 on the model of
//     package semisup. With CVOptions.Select it is nested, so that no held-out label chooses
//     anything: in each fold, Select holds out a stratified validation split of the fold's
//     labelled graphs, trains every candidate configuration, and keeps the candidate and epoch
//     that score best on it (NestedFold); the held-out fold is scored once. With
//     CVOptions.Baselines the same folds score the same head on GWF trained without labels
//     (β = 0, FitUnsupervised, Unsupervised.HeadFold), a logistic regression on its λ
//     (Unsupervised.LogRegFold) and an SVM on its λ (Unsupervised.SVMFold: GDL's protocol), and
//     Summarize compares them. With Selection.Unsupervised that β = 0 head is a candidate of
//     the nested choice too. CVOptions.Dir keeps every finished fold and checkpoints what is
//     training, so that a killed run continues where it stopped;
//   - CrossValidateGWF and CrossValidateSVM run the nested cross-validation of each classifier
//     (the semi-supervised GWF model of package semisup; the SVM on FGW discrepancies of
//     package fgwsvm) and report it: the protocol in words, every fold, the mean ± std, and
//     the baselines or the cost of the discrepancies (GWFReport, SVMReport);
//   - CrossValidateLambdaSVM and FractionLambdaSVM run the lambda-svm classifier: the GWF
//     model trained once without labels on every graph, and in each fold (or split) an SVM on
//     its λ whose inner cross-validation chooses γ, C and, among LambdaSVMSpec.Epochs, the
//     epoch (Unsupervised.SVMFoldEpochs); in a split, LambdaSVMSpec.LabelsAlone scores the
//     same model fitted on the labelled graphs alone beside it (LambdaSVMReport);
//   - FractionGWF and FractionSVM run the labelled-fraction protocol (Fraction: a stratified
//     share of the labels kept, the other graphs scored; with every label kept, a classifier
//     for unseen graphs: TrainSVM for the SVM) and WritePredictions writes its predictions;
//     HeldOutAccuracy scores it, ScorePredictions a classifier's predictions on labelled data,
//     per class;
//   - NewPredictions holds a classifier's predictions of a dataset's graphs (`gwf predict`),
//     scored against the data's own labels where they have them, and writes them as CSV;
//     ClassLabels and FoldFit check the class labels an experiment is given, NewGWFModel and
//     ResumeGWFModel set up the model of a labelled-fraction run;
//   - Read reads a report back, and Pool pools the folds of reports that differ only in their
//     seeds into one mean ± std;
//   - WriteText writes a report, or pooled reports, as the command prints them.
//
// The reports' JSON is stable: files written by earlier versions read back, and a report of
// the GWF model names no method (it predates the SVM).
package crossval
