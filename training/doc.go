// Package training learns GWF models (Algorithm 4 of Xu, AAAI 2020): K atoms and one embedding
// per graph.
//
// Fit is the one training loop of the module. Each mini-batch is a Gorgonia expression graph:
// the batch's GWF loss as one node (layers/gwops.BatchLoss: forward passes on the fast kernels,
// in parallel, transports detached by the envelope theorem) plus any extra Terms a model adds —
// package semisup adds a classifier head and its cross-entropy — differentiated by Gorgonia and
// stepped by Gorgonia's Adam (one solver for the atoms, one per term, and for the embeddings
// one solver through which each z_i's own step count and moments are swapped: the lazy Adam of
// sparse embeddings at 3K floats per graph).
// Results do not depend on the number of workers; checkpoints resume bit-identically, also
// mid-epoch. Transform embeds unseen graphs with the same loop and the atoms frozen; a model
// file keeps how its training data's node features were made (Model.Features), so that unseen
// graphs can be read the same way (collection.Spec.Encoding).
//
// Fit, NewModel and BalanceFeatures take a graphs.Source, read as each mini-batch needs it:
// graphs.Slice adapts graphs in memory, and a graphs/store file (a corpus larger than memory)
// gives the same result, bit for bit.
//
// Model.Term puts the GWF term of a mini-batch of a trained (or training) model into a user's
// own Gorgonia graph, for embeddings the user's model produces: GWF as a regulariser.
//
// Clustering and its metrics live in the sub-package cluster.
package training
