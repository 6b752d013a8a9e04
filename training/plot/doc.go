// Package plot draws the pictures of GWF models as PNG: the loss per epoch, a t-SNE layout of
// the graphs' embeddings coloured by class (the paper's Figure 4), and the atoms most used by
// the data as heat maps of U = ReLU(V); plus the line, scatter and heat-map plots these are
// made of, which the notebooks use for their other figures. `gwf plot` and the notebooks both
// draw with it.
//
// Every function writes one PNG to an io.Writer; drawing uses gonum.org/v1/plot. The t-SNE
// layout comes from github.com/danaugrs/go-tsne (the only Go t-SNE on the module proxy; exact
// O(n²) t-SNE on gonum), which draws its random start from math/rand's global source only:
// TSNELayout seeds that source, so a layout is reproducible for a seed in programs that set
// //go:debug randseednop=0 (rand.Seed is a no-op otherwise since Go 1.24), as gwf and the
// notebooks do.
package plot
