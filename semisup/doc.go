// Package semisup is the paper's semi-supervised extension, eq. (ssl): when some graphs are
// labelled, a classifier head (an MLP on the embeddings z_i) is trained jointly with the GWF
// model on
//
//	Σ_i GWF loss(graph i; atoms, softmax(z_i)) + β·Σ_{i labelled} CrossEntropy(MLP(z_i), l_i).
//
// By default (DefaultConfig) the head reads the centred embedding z_i − mean(z_i)·1 instead of
// z_i (Config.Input "centered"): the loss sees z_i only through softmax, so its component along
// 1 is unidentified, and centring removes exactly that. "lambda" reads λ_i = softmax(z_i);
// "z" gives the equation as printed.
//
// Both terms live in one Gorgonia graph per mini-batch — the GWF loss of the batch as a single
// op (nodes.BatchLoss) and the MLP with its cross-entropy — so one backward pass gives the
// gradients of the atoms V_k (and features H_k), of the batch's z_i and of the MLP weights, and
// Gorgonia's Adam updates them all. Graphs without a label still shape the atoms and their own
// embedding through the GWF term. Predict labels the training graphs; PredictNew embeds unseen
// graphs with the atoms fixed (training.Transform) and applies the head; ClassProbabilities
// does the same with probabilities, and Model.Classes (Model.ClassNames for text labels) keeps
// the data's own class labels.
//
// With Config.Encoder gcn or gin, z_i is not a free vector but the output of a graph neural
// network of graph i (GNN), trained through the same graph: unseen graphs are then embedded by
// one forward pass. EncoderTrainer trains such a model without labels, by the GWF term alone,
// for the clustering experiment (experiment.Options.Trainer).
//
// CrossValidate runs the stratified k-fold protocol of the paper's Table 2. With
// CVOptions.Select it is nested, so that no held-out label chooses anything: in each fold,
// Select holds out a stratified validation split of the fold's labelled graphs, trains every
// candidate configuration, and keeps the candidate and epoch that score best on it
// (NestedFold); the held-out fold is scored once. With CVOptions.Baselines the same folds
// score the same head on GWF trained without labels (β = 0, Unsupervised.HeadFold) and a
// multinomial logistic regression on its λ (LogReg, C by inner cross-validation) and an SVM on
// its λ (Unsupervised.SVMFold: GDL's protocol, with package svm), and Summarize compares them. With Selection.Unsupervised that β = 0 head is a candidate of the
// nested choice too: a fold keeps it where it scores better on the validation split, so that
// where the labels make the GWF model worse the classifier falls back to embeddings trained
// without them.
package semisup
