// Package fgwsvm classifies graphs with a support vector machine on a kernel of pairwise
// (fused) Gromov-Wasserstein discrepancies, the protocol of Vayer et al., "Optimal Transport for
// structured data with application on graphs" (ICML 2019): K = exp(−γ·FGW), an SVM with a
// precomputed kernel (package svm), and every setting — the structure matrix the graphs are
// compared by (adjacency or shortest paths), the weight of the node-feature cost, γ and the
// SVM's C — chosen by cross-validation on the training graphs only.
//
// The discrepancies are computed once per candidate for all the graphs of a dataset: the
// discrepancy of a pair uses no label, so the matrix serves every fold, and a held-out graph's
// row against the training graphs is what a saved classifier computes for an unseen graph
// (Model.Predict): cross-validation and prediction put graphs on the same footing. γ is given
// relative to the median discrepancy of the training pairs, so that one grid fits every
// structure and dataset.
//
// Candidates are what the data offer (Candidates): both structures at five weights of the
// node-feature cost around the balanced one; on node labels also their Weisfeiler-Lehman labels,
// and on graphs that all carry edge labels (bond types) the same refined with them too
// (Candidate.EdgeLabels); on graphs without features their degrees; on node attributes followed by node labels
// (graphs.FeaturesBoth) the attributes alone, both, or the labels' WL labels (MixedCandidates);
// on graphs with features also the structure alone and its WL labels (LabelFreeCandidates),
// for features that do not carry the class. Those rank one standard error of the inner
// estimate lower than they score (Choice.Handicap), so that they replace the data's own
// features only where they score clearly better.
//
// Two cheap kinds of candidate compare graphs by vectors instead (Candidate.Kind,
// VectorCandidates), chosen in the same inner cross-validation: their global statistics
// (KindStatistics: graphs.Statistics, each divided by its standard deviation over the
// training graphs alone, which a saved classifier keeps in Voter.Scales), and their
// Weisfeiler-Lehman subtree counts (KindWLSubtree: the normalized WL subtree kernel after 1 to
// 4 iterations). The squared Euclidean distances of the vectors take the place of the
// discrepancies, in seconds where the discrepancies take minutes.
//
// Choosing one candidate among dozens by a 5-fold estimate on a few hundred graphs picks a
// lucky one as often as a good one; by default (Settings.VoteFor) the SVMs of the best third
// (at most ten) vote, each with its own γ and C, where every candidate's matrix is computed
// anyway, and those of the best three where the candidates are screened; with
// Settings.VoteWithin, less those clearly below the best (cutVote).
//
// Where there are more graphs than Settings.Screen, the candidates are screened on a seeded
// subset of that many, in rounds of successive halving (halving.go): all on a quarter of it,
// the best third of each training set's on half, the best third again on all of it; only the
// voters the training sets choose there are computed over all graphs.
//
// On large collections (Settings.Landmarks) each graph is compared under an FGW candidate
// with m landmark graphs of the training graphs only, n·m discrepancies instead of
// n(n−1)/2, and the SVMs take the Nyström approximation of the same kernel (landmarks.go); it
// is the full kernel where every training graph is a landmark. A saved classifier keeps the
// landmarks (Model.Landmarks) and compares new graphs with them alone.
//
// Under a time budget (Settings.Budget, budget.go) a timed probe of the data, which reads no
// label, plans the run to fit it — fewer voters and a smaller screening on the full kernel, then
// landmarks, then a smaller screening, then fewer candidates —
// and the run stops at its end (BudgetError). The plan depends on the machine's speed; it is
// reported (Stats.Budget) so that a rerun can pin it. DefaultBudget is the time a caller who
// names none gives a run ('gwf classify' without --budget): 1.5 s a graph, from 5 minutes to an
// hour.
//
// The GWF model of the paper (package semisup) learns an embedding; this package is the
// classifier GW graph methods are benchmarked with, and the default of 'gwf classify' (the
// benchmark table in docs/results.md compares the two). It imports neither that model nor the
// trainer, and no autodiff: its discrepancies come from layers/pairwise, its solver is a
// layers.SolverOptions (DefaultSolver), its folds are those of internal/split (the GWF
// classifier's for the same seed), and TestNoAutodiff checks the imports.
package fgwsvm
