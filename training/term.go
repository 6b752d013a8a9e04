package training

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Term is a part of a model's objective beyond the GWF loss — a classifier head and its
// cross-entropy (package semisup), a penalty, an encoder's extra loss. The trainer adds every
// term to each mini-batch's Gorgonia expression graph next to the GWF term, differentiates the
// sum with Gorgonia and steps the term's parameters with its own Adam solver.
type Term interface {
	// Params are the term's trainable parameters in a fixed order, as tensors that share
	// storage with the term's weights: the trainer's Adam updates them in place.
	Params() []*tensor.Dense
	// Build adds the term for the mini-batch batch (indices into the training data) to g. z is
	// the batch's embedding node (B×K, row r for graph batch[r]) and params are Params as nodes
	// of g, in order. It returns the scalar term, weighted as it enters the objective, or nil
	// when it adds nothing to this batch (its parameters are then not stepped).
	Build(g *gorgonia.ExprGraph, z *gorgonia.Node, params gorgonia.Nodes, batch []int) (*gorgonia.Node, error)
}

// Encoder computes the embeddings of a mini-batch from the graphs themselves — z_i = f(G_i), a
// graph neural network for instance — in place of the model's free embeddings (the rows of
// Model.Z, which the trainer then overwrites with the encoder's outputs after each batch, so
// that Z always holds the latest embeddings).
type Encoder interface {
	// Params are the encoder's trainable parameters in a fixed order, sharing storage with its
	// weights (the trainer's Adam updates them in place).
	Params() []*tensor.Dense
	// Encode adds the batch's embeddings to g: a B×K node, row r for graph batch[r] (indices
	// into the training data), computed from params (Params as nodes of g, in order).
	Encode(g *gorgonia.ExprGraph, params gorgonia.Nodes, batch []int) (*gorgonia.Node, error)
}
