// Package gwops puts the GWF modules of package layers into Gorgonia expression graphs, so that
// they train end to end with Gorgonia's autodiff and optimizers:
//
//   - Transport: a GWD (PPA, BADMM or any layers.Solver) between two graphs as a node holding the
//     transport T, computed by the fast kernels when the machine runs and detached (no gradient
//     flows through it: the envelope theorem);
//   - Discrepancy: the (fused) GW objective <L(T), T> for a detached T, differentiable in both
//     structure matrices and feature matrices;
//   - Barycenter: the GWB module (Algorithm 3) as nodes B (and F_b), differentiable in the atoms
//     V_k (through U_k = ReLU(V_k)), their features H_k and the weights λ, with the atom
//     transports detached;
//   - Loss: the GWF loss of one observed graph spelled out as an expression (eq. approx);
//   - Templates: the template layer of TFGW, the FGW discrepancies of a batch of graphs to K
//     learnable template graphs as one B×K node, differentiable in the templates' structures and
//     features and in the graphs' node features (an encoder's output), transports detached;
//   - BatchLoss: the GWF loss of a whole mini-batch as one node whose backward pass hands
//     Gorgonia the fused envelope gradients — what the trainer of package training uses, and the
//     cheapest way to add GWF as a regulariser to a larger model.
//
// Run graphs holding these nodes with a TapeMachine (the LispMachine mis-differentiates nodes
// with two consumers), give parameter nodes distinct names (Gorgonia merges input nodes of equal
// name, type and shape), and call Reset between runs. Build them through tape.Build (package
// layers/tape), or call tape.Check before compiling: the TapeMachine's compiler merges any two
// nodes whose 32-bit hashes collide, and these ops hash by address, so a collision is a matter
// of chance that grows with the square of the graph's size. An op keeps the transports (or
// gradients) of its last run for its backward pass, so one expression graph must not be run
// by two machines at once; build one graph per goroutine.
package gwops
