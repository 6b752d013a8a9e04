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
// op (gwops.BatchLoss) and the MLP with its cross-entropy — so one backward pass gives the
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
// TemplateModel is a second, end-to-end classifier in the manner of TFGW (Vincent-Cuaz et al.,
// NeurIPS 2022): a graph is embedded as its FGW discrepancies to K learned template graphs
// (layers/gwops.Templates, transports detached), optionally after a GIN encoder of its node
// features, and an MLP reads them; FitTemplates trains encoder, templates and head together with
// Gorgonia's Adam on the cross-entropy and, with TemplateConfig.Beta > 0, the GWF loss of every
// graph rebuilt from the templates as atoms (semi-supervised). TrainTemplates trains
// TemplateConfig.Members such models from different seeds, side by side; the TemplateEnsemble
// predicts with their mean class probabilities.
//
// The classification experiments built on the model (the cross-validation protocol of the
// paper's Table 2, nested selection, fold directories, baselines, reports) are package
// semisup/crossval. Folds and KeepLabels make the stratified splits they use.
package semisup
