package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training/shard"
	"github.com/gwf-graphs/gwf/training/trainflags"
)

// classifyFlags are the flags of 'gwf classify': an SVM on a kernel of pairwise FGW
// discrepancies, every setting chosen on the training graphs.
type classifyFlags struct {
	data          dataFlags
	protocol      protocolFlags
	workers       int
	featureWeight trainflags.FeatureWeight
	method        string
	wl            string
	compare       string
	innerFolds    int
	repeats       int
	screen        int
	vote          int
	voteWithin    float64
	landmarks     int
	budget        budgetFlag
	templates     bool
}

func newClassifyCmd(a *app) *cobra.Command {
	var f classifyFlags
	cmd := &cobra.Command{
		Use:   "classify (--dataset NAME | --tu DIR | --graphs DIR)",
		Short: "Classify graphs with an SVM on FGW discrepancies, every setting chosen on the training graphs",
		Long: `classify trains a graph classifier on labelled graphs and scores it: the classifier of Vayer
et al. (FGW, ICML 2019), a support vector machine on the kernel exp(−γ·d) of the pairwise fused
GW discrepancies d, computed with the exact conditional-gradient solver.

Unless --features is given it uses what the data have: node attributes (standardized) and
one-hot node labels, either of them, or else node degrees and the Weisfeiler-Lehman labels
that start from them, as well as the structure alone (--features none: structure only, no
degrees or Weisfeiler-Lehman labels unless --wl N asks for them); with
both, the attributes alone, both together or the labels alone are candidates. Where the
graphs have features, the structure alone and the WL labels from the degrees are candidates
too, so that features that do not carry the class can be left out; they rank one standard
error of the inner estimate lower than they score, so that they replace the features only
where they score clearly better. Everything else
is chosen by --inner-folds cross-validation on the training graphs alone: the structure matrix
(adjacency or shortest paths, --structure; adjacency only, with a warning, where the dense
shortest-path matrices would exceed --max-memory), the weight of the node-feature cost (0.25, 2, 16,
128 or 1024 times the weight that balances the two costs' means; a number given with
--feature-weight is kept), on node labels (or none) whether they are compared as they are or
as their Weisfeiler-Lehman labels after 2 or 4 iterations (Hamming distance, as FGW does),
with the edge labels (bond types) too where every graph has them (--edge-labels), γ
(relative to the median discrepancy) and C.

Beside the FGW discrepancies, two cheap comparisons are candidates too (--compare), chosen in
the same cross-validation: graph statistics (node and edge counts, density, degree
summaries and histogram, clustering, transitivity, assortativity, components, path lengths and
diameter, extreme eigenvalues of the adjacency and normalized Laplacian), each divided by its
standard deviation over the training graphs, for classes that differ in such global
statistics; and Weisfeiler-Lehman subtree counts after 1 to 4 iterations (the normalized WL
subtree kernel; of the node labels, with the edge labels, and from one label for all nodes),
for classes that differ in local patterns. Both compare graphs by the squared Euclidean
distance of their vectors, take seconds on hundreds of graphs, and ignore --structure and
--feature-weight; --wl N narrows the WL subtree counts to N iterations too.

The SVMs of the best candidates vote, each with its own γ and C (--vote): the best third (at
most ten) where every candidate is computed in full, the best three of the screening with it;
those more than two standard errors of the inner estimate below the best do not
(--vote-within), so that clearly worse candidates do not outvote a clearly better one.

The discrepancies use no label, so they are computed once for all graphs (n(n−1)/2 solves a
candidate, logged with an ETA; with more than --screen graphs every candidate is first
compared on a random subset and only those the training folds choose there are computed in
full: how many is said before they start, with one ETA over all of them); a held-out graph's row is exactly what a saved classifier computes for an unseen graph.
--output-dir keeps every matrix (and the one being computed, in part) and each scored fold for a rerun.

On large collections, --landmarks m compares each graph with m landmark graphs only: n·m
solves a candidate instead of n(n−1)/2. The landmarks are a seeded random sample of each
training set (no labels read; the folds share most of them, so the discrepancies to all the
folds' landmarks are computed once), and the SVMs take the Nyström approximation of the same
kernel, γ relative to the median discrepancy to the landmarks; a saved classifier keeps its
landmarks and compares new graphs with them alone. An m above a training set's size takes all
its graphs (the exact kernel). Graph statistics and WL subtree counts keep their full
matrices, seconds of work; the screening (--screen) compares its subset in full.

--folds runs nested cross-validation (--predictions writes each held-out graph's prediction
and fold); --labeled-fraction p trains on a stratified fraction p and scores the rest
(--predictions: every graph's prediction); --labeled-fraction 1
--output FILE saves a classifier (its support graphs, voters and SVMs) for 'gwf predict'.
In a folder where only some graphs have a class label (labels.csv leaves the others out, or
gives them an empty label), with neither --folds nor --labeled-fraction it trains on the
labelled graphs and predicts the others (--predictions); with either, those are left out.
The paper's semi-supervised GWF model is 'gwf semisup --method gwf'.

--templates weighs the template model ('gwf semisup --method templates': FGW discrepancies
to learned template graphs read by an MLP, trained end to end) against the SVM: in each fold,
or for the classifier --output saves, it is trained on the training graphs less the first
inner fold and scored there, and it decides where it scores more than a standard error above
the SVM's inner cross-validation accuracy (then it is trained again on all the training
graphs). It costs one to two of its trainings a fold (ENZYMES: half an hour to an hour more on
2 cores), so under a budget it runs only where its estimate fits in half of it; the log says
which.

` + classifyBudgetHelp,
		Example: `  gwf classify --graphs ./my-graphs                   # nested 10-fold accuracy
  gwf classify --graphs ./my-graphs --predictions cv.csv   # and each graph's held-out prediction
  gwf classify --graphs ./my-graphs --labeled-fraction 0.5 --predictions predictions.csv
  gwf classify --graphs ./my-graphs --labeled-fraction 1 --output my.classifier
  gwf predict --model my.classifier --graphs ./new-graphs
  gwf classify --graphs ./some-labelled --predictions predictions.csv   # predicts the unlabelled
  gwf classify --dataset MUTAG --folds 10 --json > mutag-1.json
  gwf classify --graphs ./my-graphs --compare statistics,wl-subtree   # the cheap candidates alone: seconds
  gwf classify --graphs ./my-graphs --compare fgw                     # FGW discrepancies only
  gwf classify --dataset PROTEINS --output-dir proteins/   # rerun to continue after a kill
  gwf classify --tu ./NCI1 --landmarks 200                 # n·200 solves a candidate, not n(n−1)/2
  gwf classify --dataset PROTEINS --budget 30m --output-dir proteins/   # planned to fit 30 minutes
  gwf classify --dataset PROTEINS --budget 0 --output-dir proteins/     # every setting, however long
  gwf classify --dataset MUTAG --templates --budget 0                  # the template model weighed too`,
		Annotations: cli.Interruptible("no report written (with --output-dir, the same command continues from what it kept)"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return explainBudget(runClassify(cmd, a, &f), f.budget.used)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	// Without --features classify reads what the data have (above), not pflag's "none".
	ft := fs.Lookup("features")
	ft.Usage += " (default: what the data have, chosen among on the training graphs; none: the structure alone)"
	ft.DefValue = ""
	f.data.AllowAutoStructure(fs, "the matrix graphs are compared by: adjacency, shortest-path (sp), or auto (both, chosen on the training graphs)")
	f.data.RegisterEdgeLabels(fs, true, "read edge labels (TU bond types; the edge attribute label of node-link, GraphML, GML and GEXF files) where every graph has them, and compare them in Weisfeiler-Lehman candidates beside those without (chosen on the training graphs); false leaves them out")
	f.protocol.register(fs, "with --labeled-fraction 1: write the classifier (support graphs, voters, SVMs) to this file, for 'gwf predict'",
		"folder to keep every discrepancy matrix computed (.npy; the one being computed in part, every few seconds as its pairs finish, and on Ctrl-C) and report.json, for a rerun to reuse")
	trainflags.RegisterWorkers(fs, &f.workers, "goroutines of the discrepancies")
	f.featureWeight.Register(fs, 0, true, `weight of the node-feature cost, kept instead of the candidates' weights (auto: five multiples of the balanced weight, chosen on the training graphs)`)
	fs.StringVar(&f.method, "method", methodSVM, "deprecated: fgw-svm is this command's classifier; the semi-supervised GWF model is 'gwf semisup --method gwf'")
	_ = fs.MarkHidden("method")
	fs.StringVar(&f.wl, "wl", "auto", "node labels compared as their Weisfeiler-Lehman labels after this many iterations (0: as they are; at most 10), or auto (0, 2 and 4, chosen on the training graphs); categorical node features, or none (WL from the degrees)")
	fs.StringVar(&f.compare, "compare", "auto", "how graphs are compared, a comma-separated list of fgw (FGW discrepancies), statistics (graph statistics) and wl-subtree (Weisfeiler-Lehman subtree counts), or auto (all three; fgw alone with --features none); chosen on the training graphs")
	fs.IntVar(&f.screen, "screen", fgwsvm.DefaultScreen, "with more graphs than this, compare every candidate on a random subset of this many graphs first and compute all the discrepancies only for those the training graphs choose there (0: every candidate in full)")
	fs.IntVar(&f.innerFolds, "inner-folds", 5, "folds of the cross-validation on the training graphs that chooses the structure, feature weight, γ and C")
	fs.IntVar(&f.vote, "vote", 0, fmt.Sprintf("let the SVMs of this many candidates vote, the best by that cross-validation, each with its own γ and C (1: the single best; 0: the best third of the candidates, at most %d, where every candidate is computed in full, the best %d of the screening where they are screened)", fgwsvm.DefaultVote, fgwsvm.DefaultScreenedVote))
	fs.Float64Var(&f.voteWithin, "vote-within", fgwsvm.DefaultVoteWithin, "leave out of the vote the candidates whose inner cross-validation accuracy is more than this many standard errors of the best one's below it, so that clearly worse candidates do not outvote a clearly better one; where the candidates are screened, those this far under the best there are not computed in full (0: all of --vote vote)")
	fs.IntVar(&f.landmarks, "landmarks", 0, "compare each graph with this many landmark graphs, a seeded random sample of the training graphs, instead of with every graph, and train the SVMs on the Nyström approximation of the kernel (0: every pair, the exact kernel; more than a training set holds: all of them; at least 2)")
	registerBudget(fs, &f.budget)
	fs.BoolVar(&f.templates, "templates", false, "weigh the template model ('gwf semisup --method templates', its defaults) against the FGW-SVM, in each fold of --folds or for the classifier --labeled-fraction 1 --output saves: trained on the training graphs less the first inner fold and scored there, it decides (is saved) where it scores more than a standard error above the FGW-SVM's inner cross-validation accuracy; under a budget, only where its estimate fits in half of it")
	fs.IntVar(&f.repeats, "inner-repeats", 1, "repeat that cross-validation over this many fold assignments and choose by the mean accuracy")
	return cmd
}

// The two classifiers of the reports ('gwf pool' reads both).
const (
	methodSVM = crossval.MethodSVM // 'gwf classify': an SVM on a kernel of pairwise FGW discrepancies
	methodGWF = crossval.MethodGWF // 'gwf semisup': the paper's semi-supervised GWF model
)

// candidates are the candidates the flags leave to choose from (fgwsvm.Candidates): the kinds
// --compare names, one structure when --structure names it, one weight when --feature-weight
// is a number, one number of Weisfeiler-Lehman iterations when --wl is, the structure alone
// when --features none is given (no node degrees or Weisfeiler-Lehman labels made from it,
// unless --wl asks).
func (f *classifyFlags) candidates(data []*graphs.Graph, enc graphs.FeatureEncoding, structureOnly bool) ([]fgwsvm.Candidate, error) {
	kinds, err := f.kinds()
	if err != nil {
		return nil, err
	}
	n := fgwsvm.Narrow{Limits: f.data.Limits(), StructureOnly: structureOnly, Kinds: kinds}
	if s, auto := f.data.StructureChoice(); !auto {
		n.Structure = s
	}
	if !f.featureWeight.Auto {
		n.FeatureWeight = f.featureWeight.Weight
	}
	if f.wl != "auto" {
		h, err := strconv.Atoi(f.wl)
		if err != nil || h < 0 || h > graphs.MaxWLIterations {
			return nil, cli.Usagef("--wl = %q: give auto or a number of iterations from 0 to %d", f.wl, graphs.MaxWLIterations)
		}
		n.WL = &h
	}
	cs, err := fgwsvm.Candidates(data, enc, n)
	if err == nil && len(cs) == 0 {
		return nil, cli.Usagef("--compare %s leaves no candidates (--wl 0 leaves out the Weisfeiler-Lehman subtree counts)", f.compare)
	}
	return cs, err
}

// kinds are the kinds of candidate --compare names (nil for auto).
func (f *classifyFlags) kinds() ([]fgwsvm.Kind, error) {
	if f.compare == "auto" {
		return nil, nil
	}
	var out []fgwsvm.Kind
	for _, name := range strings.Split(f.compare, ",") {
		k, err := fgwsvm.ParseKind(strings.TrimSpace(name))
		if err != nil {
			return nil, cli.Usagef("--compare = %q: give auto or a comma-separated list of %s, %s and %s", f.compare, fgwsvm.KindFGW, fgwsvm.KindStatistics, fgwsvm.KindWLSubtree)
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// check checks the flags that need no data. The classifier's settings are checked once the
// data give their candidates (settings).
func (f *classifyFlags) check() error {
	p := &f.protocol
	switch {
	case f.method != methodSVM:
		return cli.Usagef("--method %q: 'gwf classify' is the fgw-svm classifier; the paper's semi-supervised GWF model is 'gwf semisup --method gwf'", f.method)
	case (p.output != "") != (p.fraction == 1):
		return cli.Usagef("--output writes the classifier trained on all labelled graphs: give it with --labeled-fraction 1")
	case f.workers < 0:
		return cli.Usagef("--workers = %d must not be negative", f.workers)
	case f.repeats < 1 || f.repeats > fgwsvm.MaxRepeats: // 0 would select the library's default: on the command line it is a mistake
		return cli.Usagef("--inner-repeats = %d: want 1 to %d", f.repeats, fgwsvm.MaxRepeats)
	case f.templates && p.fraction > 0 && p.fraction < 1:
		return cli.Usagef("--templates weighs the template model in nested cross-validation (--folds) or for the classifier --labeled-fraction 1 --output saves; to score it on a fraction, 'gwf semisup --method templates'")
	}
	if err := p.checkFraction(); err != nil {
		return err
	}
	if _, err := f.kinds(); err != nil {
		return err
	}
	if err := checkBudgetFlag(f.budget); err != nil {
		return err
	}
	return f.data.check()
}

// settings are the classifier's settings for the candidates cands, checked: their errors are
// usage errors.
func (f *classifyFlags) settings(cands []fgwsvm.Candidate) (fgwsvm.Settings, error) {
	grid := fgwsvm.DefaultGrid()
	grid.Folds, grid.Seed, grid.Repeats = f.innerFolds, f.protocol.foldSeed, f.repeats
	set := fgwsvm.Settings{Candidates: cands, Grid: grid, Screen: f.screen, Vote: f.vote, VoteWithin: f.voteWithin, Landmarks: f.landmarks}
	if err := set.Validate(); err != nil {
		return fgwsvm.Settings{}, cli.Usagef("%v", err)
	}
	return set, nil
}

// labelled are the graphs a classifier learns from: the dataset, each graph's class index
// (semisup.Unlabeled where it has none) and the number of classes.
type labelled struct {
	ds      *graphs.Dataset
	labels  []int
	classes int
}

func runClassify(cmd *cobra.Command, a *app, f *classifyFlags) error {
	start := time.Now() // of --budget
	fs := cmd.Flags()
	if err := f.check(); err != nil {
		return err
	}
	release, err := lockOutputDir(f.protocol.outputDir, shard.Whole(), a.Log)
	if err != nil {
		return err
	}
	defer release()
	// The candidates apply their structures themselves: read the adjacency.
	raw := f.data
	raw.Structure, raw.PartialLabels = "auto", graphs.PartialLabelsKept
	ds, err := raw.loadAutoFeatures(a.Log)
	if err != nil {
		return err
	}
	p := &f.protocol
	ds = p.partlyLabelled(a, fs, ds)
	data := ds.Graphs
	labels, classesN, err := p.classLabels(a, ds)
	if err != nil {
		return err
	}
	// --features none given: the structure only, as the help says. Left to the data, graphs
	// without features also get node degrees and Weisfeiler-Lehman labels made from it.
	structureOnly := f.data.FeaturesGiven && f.data.Features == "none"
	cands, err := f.candidates(data, ds.Encoding, structureOnly)
	if err != nil {
		return err
	}
	set, err := f.settings(cands)
	if err != nil {
		return err
	}
	if _, auto := f.data.StructureChoice(); auto {
		if err := graphs.ShortestPath.Fits(data, f.data.Limits()); err != nil {
			a.Log.Warnf("adjacency only: %v", err)
		}
	}
	budget := f.budget.resolve(len(data))
	if budget == 0 { // under a budget the plan's screening decides the default vote
		set.Vote = set.VoteFor(len(data))
	}
	on := "FGW discrepancies (exact CG solver)"
	if !slices.ContainsFunc(set.Candidates, func(c fgwsvm.Candidate) bool { return c.Kind == "" }) {
		on = "distances of graph statistics or Weisfeiler-Lehman subtree counts"
	}
	a.Log.Infof("classifying %s (%d graphs, %d classes) with an SVM on %s; node features: %s; %d candidates: %s",
		ds.Name, len(data), classesN, on, describeFeatures(ds.Encoding, set.Candidates), len(set.Candidates), crossval.DescribeCandidates(set.Candidates))
	if f.budget.auto {
		a.Log.Infof("budget %s, the default for %d graphs (%s a graph, from %s to %s; --budget 0: none)", budget, len(data), fgwsvm.DefaultBudgetPerGraph, fgwsvm.DefaultBudgetMin, fgwsvm.DefaultBudgetMax)
	}
	ctx := cmd.Context()
	d := labelled{ds: ds, labels: labels, classes: classesN}
	templates, svmBudget, err := f.weighTemplates(ctx, a, d, budget, start)
	if err != nil {
		return err
	}
	if set.Budget, err = budgetLeft(svmBudget, start); err != nil {
		return err
	}
	opt := fgwsvm.Options{Workers: f.workers, Dir: p.outputDir, Observe: a.observer("computing", nil), Limits: f.data.Limits()}
	switch {
	case p.fraction == 1:
		m, rep, err := crossval.TrainSVM(ctx, ds, labels, classesN, set, opt)
		if err != nil {
			return err
		}
		if templates != nil {
			tm, err := crossval.WeighTrained(ctx, ds, labels, classesN, *templates, set, opt, rep)
			if err != nil {
				return err
			}
			if tm != nil {
				if err := tm.Save(p.output); err != nil {
					return err
				}
				rep.Protocol += fmt.Sprintf("; the template model saved to %s for 'gwf predict'", p.output)
				a.Log.Infof("the template model decides (%.2f%% on the held-out training graphs against the FGW-SVM's %.2f%%); saved it", 100*rep.Weighed[0].Templates, 100*rep.Weighed[0].SVM)
				return p.writeReport(cmd.OutOrStdout(), rep)
			}
		}
		if err := m.Save(p.output); err != nil {
			return err
		}
		rep.Protocol += fmt.Sprintf("; saved to %s for 'gwf predict'", p.output)
		kept := fmt.Sprintf("%d support graphs", len(m.Graphs))
		if len(m.Landmarks) > 0 {
			kept += fmt.Sprintf(", %d of them landmarks", len(m.Landmarks))
		}
		a.Log.Infof("chose %s; kept %s", rep.Chosen(), kept)
		return p.writeReport(cmd.OutOrStdout(), rep)
	case p.fraction > 0 || p.given:
		return classifyFraction(cmd, a, p, d, set, opt)
	}
	cv, err := crossval.CrossValidateSVM(ctx, ds, labels, classesN, crossval.SVMSpec{
		Folds: p.folds, Seed: p.foldSeed, Settings: set, Options: opt, ReportDir: p.outputDir, Templates: templates,
	})
	if err != nil {
		return err
	}
	if err := p.writeReport(cmd.OutOrStdout(), cv); err != nil {
		return err
	}
	return p.writeHeldOut(ds, labels, cv.HeldOut()) // after the report: a fold saved without predictions loses nothing else
}

// describeFeatures says what the candidates compare of the nodes: the node features read
// (enc: the data's encoding; the edge labels only where a candidate compares them), and what
// they make from the structure instead, so that the log does not call "none" what uses node
// degrees.
func describeFeatures(enc graphs.FeatureEncoding, cands []fgwsvm.Candidate) string {
	noFeatures := enc.Dim() == 0
	if !slices.ContainsFunc(cands, func(c fgwsvm.Candidate) bool { return c.EdgeLabels }) {
		enc.EdgeLabels = false // read, but no candidate uses them
	}
	used := crossval.DescribeFeatures(enc)
	fromStructure := func(c fgwsvm.Candidate) bool { return noFeatures || c.WithoutFeatures }
	var made []string
	stats := slices.ContainsFunc(cands, func(c fgwsvm.Candidate) bool { return c.Kind == fgwsvm.KindStatistics })
	rest := slices.DeleteFunc(slices.Clone(cands), func(c fgwsvm.Candidate) bool { return c.Kind == fgwsvm.KindStatistics })
	if slices.ContainsFunc(cands, func(c fgwsvm.Candidate) bool { return c.Degree }) {
		made = append(made, "node degrees")
	}
	if slices.ContainsFunc(cands, func(c fgwsvm.Candidate) bool { return c.WL > 0 && fromStructure(c) }) {
		made = append(made, "Weisfeiler-Lehman labels from one label for all nodes")
	}
	if len(made) == 0 && noFeatures && !stats {
		return used + ": the structure alone"
	}
	if slices.ContainsFunc(rest, func(c fgwsvm.Candidate) bool { return c.WL == 0 && !c.Degree && fromStructure(c) }) {
		made = append(made, "the structure alone")
	}
	if stats {
		made = append(made, "graph statistics")
	}
	if len(made) == 0 {
		return used
	}
	return used + "; from the structure: " + strings.Join(made, ", ")
}

// classifyFraction keeps a stratified fraction of the labels of d (or the labels as given),
// trains on them and predicts the other graphs, scoring those it hid the labels of.
func classifyFraction(cmd *cobra.Command, a *app, p *protocolFlags, d labelled, set fgwsvm.Settings, opt fgwsvm.Options) error {
	rep, split, err := crossval.FractionSVM(cmd.Context(), d.ds, d.labels, d.classes, p.split(), set, opt)
	if err != nil {
		return err
	}
	a.Log.Infof("chose %s", rep.Chosen())
	if err := p.writePredictions(d.ds, d.labels, split, d.ds.ClassText); err != nil {
		return err
	}
	return p.writeReport(cmd.OutOrStdout(), rep)
}
