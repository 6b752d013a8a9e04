// Package shard splits the embedding of a graph corpus across processes or machines and joins
// the results: shard i of n embeds a contiguous slice of the corpus (Shard.Range) in chunks read
// one at a time from disk (Embed; a TU folder in one pass of graphs.TUScanner), so memory is
// bounded by a chunk, and MergeCSV joins the parts
// into exactly the bytes one process would have written. The shard comes from a flag ("i/n",
// Parse) or from the job-array variables of Slurm and of Kubernetes Indexed Jobs (FromEnv).
//
// Embeddings are transform-mode embeddings (training.Transform): with the atoms fixed, graph i
// depends only on the model and on its position in the corpus, which training.Options.Offset
// gives, so the split changes nothing in the numbers.
package shard
