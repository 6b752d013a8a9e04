// Package training learns GWF models (Algorithm 4 of Xu, AAAI 2020): K atoms and one embedding
// per graph, trained with Gorgonia's Adam on the envelope-theorem loss of package layers, in
// mini-batches whose graphs are processed in parallel with results independent of the number
// of workers. It also embeds unseen graphs with the atoms fixed (transform mode), saves and
// loads models and checkpoints atomically, and resumes training.
//
// Clustering and its metrics live in the sub-package cluster.
package training
