// Package tape guards Gorgonia's TapeMachine against a miscompilation. Its compiler (value
// numbering in Gorgonia v0.9.18) treats any two nodes with the same 32-bit hash as one node,
// whatever their ops, inputs or shapes, so a graph in which two distinct nodes collide
// computes one value for both: a silently wrong loss or gradient, or a shape error at run time.
// A graph of n distinct nodes has such a collision with probability about n²/2³³.
//
// The GWD, GWB and sparse ops of this project hash by their address (every instance is
// distinct), so the hashes of the nodes built on them change from one build to the next and a
// collision rarely survives a rebuild. Build therefore builds a graph, checks it, and builds it
// again when two of its nodes collide; Check alone serves callers who build their own graphs.
// The trainer (package training) and the semi-supervised models build every graph through
// Build.
//
// What Check cannot see: as a node is added, Gorgonia returns an existing node instead when the
// two have the same hash, op, type and shape (its nodeEq does not compare their inputs), so a
// collision between two such look-alike nodes is wired in before any graph exists to check.
// That needs a collision among the few pairs of nodes with the same op and shape, a fraction of
// the chance above.
package tape
