// Package store keeps a graph collection in one binary file read graph by graph, so that
// training can stream a corpus larger than memory: Writer appends graphs in one pass (from a
// graphs.TUScanner, say), and Store, a graphs.Source, reads any one of them back with a single
// ReadAt. Memory is then bounded by the graphs asked for at once (a mini-batch), not by the
// corpus.
//
// A store is a spool: the file a run writes for itself and reads back, not an exchange format.
// It is still read as untrusted input: every size is checked against the file and the
// graphs.Limits before anything is allocated, and each record carries a CRC-32C, so a truncated
// or damaged file gives an error, never a panic or a wrong graph.
//
// Layout (little-endian): a 16-byte header ("GWFSTORE", version, feature dimension); the
// records, one per graph (name, label, nodes, compressed rows, distribution, features, CRC);
// the index (each record's offset, then each graph's node count, a CRC); a 24-byte trailer (index
// offset, graph count, "GWFINDEX").
package store
