package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// defaultEmbedding is what "gwf cluster" clusters and "gwf embed" writes unless --embedding
// says otherwise. It is defined here only. It is λ = softmax(z), chosen on a principled argument,
// not on labels: the model and its loss see z only through softmax, which is invariant to
// z + c·1, so the component of z along 1 is unidentified — Adam's per-coordinate scaling moves
// it in ways the loss never sees, and Euclidean K-means on z would count that noise. λ is the
// identifiable representation the model actually uses (the barycenter weights).
const defaultEmbedding = training.EmbeddingLambda

// kmeansRestarts is the number of K-means restarts per clustering.
const kmeansRestarts = 10

// clusterFlags are the flags of "gwf cluster".
type clusterFlags struct {
	data       dataFlags
	train      trainFlags
	embedding  string
	runs       int
	json       bool
	outputDir  string
	quiet      bool
	method     string
	iterations int
	clusters   int
}

// clusterRun is one run of "gwf cluster": training, then K-means on both embeddings. The
// unsuffixed scores are those of the chosen embedding.
type clusterRun struct {
	Run            int       `json:"run"`
	Seed           uint64    `json:"seed"`
	Accuracy       float64   `json:"accuracy"`
	NMI            float64   `json:"nmi"`
	ARI            float64   `json:"ari"`
	RandIndex      float64   `json:"rand_index"`
	AccuracyZ      float64   `json:"accuracy_z"`
	NMIZ           float64   `json:"nmi_z"`
	ARIZ           float64   `json:"ari_z"`
	RandIndexZ     float64   `json:"rand_index_z"`
	AccuracyLambda float64   `json:"accuracy_lambda"`
	NMILambda      float64   `json:"nmi_lambda"`
	ARILambda      float64   `json:"ari_lambda"`
	RandLambda     float64   `json:"rand_index_lambda"`
	Seconds        float64   `json:"seconds"` // training wall time
	Epochs         int       `json:"epochs"`
	Loss           []float64 `json:"loss"` // mean loss per epoch
	// assign is the chosen embedding's clustering, and rows that embedding (not in the JSON).
	assign []int
	rows   [][]float64
}

// meanStd summarises one metric over the runs.
type meanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// clusterReport is the --json output of "gwf cluster" (and report.json of --output-dir).
type clusterReport struct {
	Dataset        string          `json:"dataset"`
	Graphs         int             `json:"graphs"`
	Classes        int             `json:"classes"`
	Clusters       int             `json:"clusters"`
	Unlabelled     bool            `json:"unlabelled,omitempty"` // no scores: the data have no class labels
	Features       string          `json:"features"`
	Embedding      string          `json:"embedding"`
	KMeansRestarts int             `json:"kmeans_restarts"`
	Config         training.Config `json:"config"` // of the first run; run r uses seed config.seed + r
	Runs           []clusterRun    `json:"runs"`
	Accuracy       meanStd         `json:"accuracy"`
	NMI            meanStd         `json:"nmi"`
	ARI            meanStd         `json:"ari"`
	RandIndex      meanStd         `json:"rand_index"`
	AccuracyZ      meanStd         `json:"accuracy_z"`
	AccuracyLambda meanStd         `json:"accuracy_lambda"`
	Seconds        meanStd         `json:"seconds"`
	Epochs         int             `json:"epochs"`
	Loss           []float64       `json:"loss"` // of the first run
	Interrupted    bool            `json:"interrupted,omitempty"`
}

func newClusterCmd(a *app) *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "cluster (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) [--clusters K]",
		Short: "Fit GWF models and cluster their embeddings with K-means (the paper's experiment)",
		Long: fmt.Sprintf(`cluster runs the paper's clustering experiment --runs times: run r (r = 0, 1, ...) fits a GWF
model with seed --seed + r, clusters the graphs' embeddings with K-means (K = --clusters, by
default the number of classes; %d restarts, seeded) and, when the data have class labels,
scores the clusters against them: accuracy (best matching of clusters to classes), NMI, ARI
and Rand index. Unlabelled data (a TU folder without graph labels, a --graphs folder without
labels.csv) need --clusters; the clusters are written (--output-dir) but not scored. The chosen --embedding (z: raw
embeddings, lambda: atom weights softmax(z); default %s) gives the main scores; the other one
is always scored too.

The table shows each run and the mean ± std over runs (scores in %%); --json prints the report
as JSON instead (scores as fractions). --output-dir also writes, per run, the embeddings with
their clusters (embeddings-run<r>.csv), its scores and settings (run<r>.json) and the report
(report.json). A run whose run<r>.json is there with the same data and settings is reused, not
trained again, so a killed multi-run experiment continues where it stopped when rerun.

Training flags are those of 'gwf fit' and default to the paper's settings. --subset N picks N
graphs at random (seeded by --subset-seed, the same for all runs) for quick tries.

--method fgwk or gwb-km runs a baseline of the paper's Table 1 instead of GWF, with the GWD
module of --solver/--gamma/--layers/--inner: FGWK computes the (F)GW discrepancy of every pair
of graphs (I(I−1)/2 GWDs: use --subset on large datasets), the kernel exp(−d/β) with β the
median discrepancy, and spectral clustering; GWB-KM runs K-means with GW barycenters as centers
(--iterations rounds at most, --gwb-layers per barycenter). Both report the GWDs computed.`, kmeansRestarts, defaultEmbedding),
		Example: `  gwf cluster --dataset MUTAG --runs 5
  gwf cluster --dataset PROTEINS --features labels --embedding lambda --json > proteins.json
  gwf cluster --dataset MUTAG --subset 40 --atoms 3 --layers 5 --epochs 2 --runs 2
  gwf cluster --tu ./data/MYDATA --output-dir results/
  gwf cluster --graphs ./my-graphs --clusters 3 --output-dir results/
  gwf cluster --dataset AIDS --method fgwk --subset 500 --runs 5`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCluster(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	fs.StringVar(&f.embedding, "embedding", string(defaultEmbedding), "embedding to cluster: z (raw) or lambda (softmax(z), the atom weights)")
	fs.IntVar(&f.runs, "runs", 1, "number of runs (seeds --seed, --seed+1, ...)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.StringVar(&f.outputDir, "output-dir", "", "folder to write each run's embeddings CSV and report.json into")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "do not log progress")
	fs.StringVar(&f.method, "method", methodGWF, "clustering method: gwf (the model), fgwk (pairwise GW kernel + spectral clustering) or gwb-km (K-means with GW barycenter centers)")
	fs.IntVar(&f.iterations, "iterations", 10, "assign/update rounds of gwb-km")
	fs.IntVar(&f.clusters, "clusters", 0, "number of clusters K (0: the number of classes; required when the data have no class labels)")
	return cmd
}

func runCluster(cmd *cobra.Command, a *app, f *clusterFlags) error {
	flags := cmd.Flags()
	a.quiet(flags, f.quiet)
	if err := f.data.check(); err != nil {
		return err
	}
	emb, err := training.ParseEmbedding(f.embedding)
	if err != nil {
		return usagef("--embedding: %w", err)
	}
	if f.runs < 1 {
		return usagef("--runs = %d must be at least 1", f.runs)
	}
	switch f.method {
	case methodGWF, methodFGWK, methodGWBKM:
	default:
		return usagef("--method %q: want gwf, fgwk or gwb-km", f.method)
	}
	if f.iterations < 1 {
		return usagef("--iterations = %d must be at least 1", f.iterations)
	}
	if f.clusters < 0 {
		return usagef("--clusters = %d must not be negative", f.clusters)
	}
	cfg, warnings, err := f.train.config(flags)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		a.log.Warn(w)
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	truth, nClasses, err := classes(data)
	if err != nil {
		return err
	}
	k := nClasses
	switch {
	case f.clusters > 0:
		k = f.clusters
	case truth == nil:
		return usagef("the data have no class labels: give the number of clusters with --clusters K")
	}
	if k > len(data) {
		return usagef("--clusters = %d is more than the %d graphs", k, len(data))
	}
	if truth == nil && f.method != methodGWF {
		return usagef("--method %s scores against class labels, and the data have none", f.method)
	}
	if err := f.train.resolveFeatureWeight(&cfg, data, a.log); err != nil {
		return err
	}
	if f.outputDir != "" {
		if err := os.MkdirAll(f.outputDir, 0o755); err != nil {
			return fmt.Errorf("output dir: %w", err)
		}
	}
	if f.method != methodGWF {
		ctx, stop := withSignals(cmd.Context(), a.log)
		defer stop()
		return runBaselines(ctx, a, f, cfg, ds, data, truth, k, cmd.OutOrStdout())
	}
	rep := &clusterReport{
		Dataset: ds.Name, Graphs: len(data), Classes: nClasses, Clusters: k, Unlabelled: truth == nil, Features: f.data.features,
		Embedding: string(emb), KMeansRestarts: kmeansRestarts, Config: cfg, Epochs: cfg.Epochs,
	}
	a.log.Infof("clustering %s (%d graphs, %d classes, node features: %s), %d runs: %s", ds.Name, len(data), k, f.data.features, f.runs, describeConfig(cfg))
	if err := checkModelSize(cfg, data); err != nil {
		return err
	}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	var fingerprint string
	if f.outputDir != "" {
		fingerprint = training.Fingerprint(data)
	}
	for r := 0; r < f.runs; r++ {
		c := cfg
		c.Seed = cfg.Seed + uint64(r)
		fields := logrus.Fields{"run": fmt.Sprintf("%d/%d", r+1, f.runs)}
		record := runRecord{Data: fingerprint, Embedding: string(emb), KMeansRestarts: kmeansRestarts, Config: c}
		if k != nClasses {
			record.Clusters = k // recorded only when it differs, so records of class-count runs stay valid
		}
		if f.outputDir != "" {
			run, ok, reason := savedRun(f.outputDir, r, record)
			if ok {
				a.log.WithFields(fields).Infof("reusing %s: accuracy %.2f%%", runRecordPath(f.outputDir, r), 100*run.Accuracy)
				rep.Runs = append(rep.Runs, run)
				continue
			}
			if reason != "" {
				a.log.WithFields(fields).Warnf("not reusing the saved run: %s", reason)
			}
		}
		m, err := training.NewModel(data, c)
		if err != nil {
			return fmt.Errorf("run %d: new model: %w", r, err)
		}
		t0 := time.Now()
		if err := fitModel(ctx, a, m, data, fitRun{workers: f.train.workers, skipNonFinite: f.train.skipNonFinite, quiet: f.quiet, fields: fields}); err != nil {
			if ctx.Err() != nil {
				rep.Interrupted = true
				break
			}
			return fmt.Errorf("run %d: training: %w", r, err)
		}
		run := clusterRun{Run: r, Seed: c.Seed, Seconds: time.Since(t0).Seconds(), Epochs: len(m.History), Loss: []float64{}}
		for _, h := range m.History {
			run.Loss = append(run.Loss, h.Loss)
		}
		if err := scoreRun(&run, m, emb, truth, k); err != nil {
			return fmt.Errorf("run %d: %w", r, err)
		}
		if truth != nil {
			a.log.WithFields(fields).Infof("accuracy %.2f%% (z %.2f%%, lambda %.2f%%), NMI %.4f, ARI %.4f",
				100*run.Accuracy, 100*run.AccuracyZ, 100*run.AccuracyLambda, run.NMI, run.ARI)
		}
		if f.outputDir != "" {
			p := filepath.Join(f.outputDir, fmt.Sprintf("embeddings-run%d.csv", r))
			err := writeOutput(nil, p, func(w io.Writer) error {
				return writeEmbeddingsCSV(w, ds, data, emb, run.rows, run.assign)
			})
			if err != nil {
				return err
			}
			record.Run = run
			if err := saveRun(f.outputDir, record); err != nil {
				return err
			}
		}
		rep.Runs = append(rep.Runs, run)
	}
	if len(rep.Runs) == 0 {
		return interruptedError{"interrupted before the first run completed"}
	}
	rep.summarise()
	if f.outputDir != "" {
		err := writeOutput(nil, filepath.Join(f.outputDir, "report.json"), func(w io.Writer) error {
			return writeJSON(w, rep)
		})
		if err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if f.json {
		err = writeJSON(out, rep)
	} else {
		err = rep.writeTable(out)
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	if rep.Interrupted {
		return interruptedError{fmt.Sprintf("interrupted: %d of %d runs completed (reported above)", len(rep.Runs), f.runs)}
	}
	return nil
}

// classes returns the class of every graph and the number of distinct classes among them;
// nil and 0 when no graph has a label.
func classes(data []*graphs.Graph) ([]int, int, error) {
	truth := make([]int, len(data))
	seen := map[int]bool{}
	if !slices.ContainsFunc(data, func(g *graphs.Graph) bool { return g.HasLabel }) {
		return nil, 0, nil
	}
	for i, g := range data {
		if !g.HasLabel {
			return nil, 0, fmt.Errorf("graph %q has no class label, others have: label all graphs or none", g.Name)
		}
		truth[i] = g.Label
		seen[g.Label] = true
	}
	return truth, len(seen), nil
}

// scoreRun clusters both embeddings of m's graphs and fills in the scores (none when truth is
// nil).
func scoreRun(run *clusterRun, m *training.Model, chosen training.Embedding, truth []int, k int) error {
	for _, e := range []training.Embedding{training.EmbeddingZ, training.EmbeddingLambda} {
		rows := e.Rows(m.Z)
		res, err := cluster.KMeans(rows, cluster.KMeansOptions{K: k, Restarts: kmeansRestarts, Seed: run.Seed})
		if err != nil {
			return fmt.Errorf("k-means on %s: %w", e, err)
		}
		if e == chosen {
			run.assign, run.rows = res.Assign, rows
		}
		if truth == nil {
			continue
		}
		s, err := cluster.Evaluate(truth, res.Assign)
		if err != nil {
			return fmt.Errorf("scores of %s: %w", e, err)
		}
		if e == training.EmbeddingZ {
			run.AccuracyZ, run.NMIZ, run.ARIZ, run.RandIndexZ = s.Accuracy, s.NMI, s.ARI, s.RandIndex
		} else {
			run.AccuracyLambda, run.NMILambda, run.ARILambda, run.RandLambda = s.Accuracy, s.NMI, s.ARI, s.RandIndex
		}
		if e == chosen {
			run.Accuracy, run.NMI, run.ARI, run.RandIndex = s.Accuracy, s.NMI, s.ARI, s.RandIndex
		}
	}
	return nil
}

// summarise fills in the means and standard deviations over the runs.
func (rep *clusterReport) summarise() {
	ms := func(get func(clusterRun) float64) meanStd {
		xs := rep.metric(get)
		mean, std := cluster.MeanStd(xs)
		return meanStd{Mean: mean, Std: std}
	}
	rep.Accuracy = ms(func(r clusterRun) float64 { return r.Accuracy })
	rep.NMI = ms(func(r clusterRun) float64 { return r.NMI })
	rep.ARI = ms(func(r clusterRun) float64 { return r.ARI })
	rep.RandIndex = ms(func(r clusterRun) float64 { return r.RandIndex })
	rep.AccuracyZ = ms(func(r clusterRun) float64 { return r.AccuracyZ })
	rep.AccuracyLambda = ms(func(r clusterRun) float64 { return r.AccuracyLambda })
	rep.Seconds = ms(func(r clusterRun) float64 { return r.Seconds })
	rep.Loss = rep.Runs[0].Loss
}

// metric collects one value per run.
func (rep *clusterReport) metric(get func(clusterRun) float64) []float64 {
	xs := make([]float64, len(rep.Runs))
	for i, r := range rep.Runs {
		xs[i] = get(r)
	}
	return xs
}

// writeTable prints one line per run and the mean ± std over runs; scores in percent.
func (rep *clusterReport) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes, node features: %s; clustering %s with K-means (K = %d, %d restarts)\n",
		rep.Dataset, rep.Graphs, rep.Classes, rep.Features, rep.Embedding, rep.Clusters, rep.KMeansRestarts)
	fmt.Fprintf(w, "%s\n\n", describeConfig(rep.Config))
	if rep.Unlabelled {
		return rep.writeUnscored(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tseed\tepochs\tloss\tacc %\tNMI %\tARI %\tRI %\tacc z %\tacc λ %\tseconds\t")
	for _, r := range rep.Runs {
		loss := "-"
		if len(r.Loss) > 0 {
			loss = fmt.Sprintf("%.5g", r.Loss[len(r.Loss)-1])
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", r.Run, r.Seed, r.Epochs, loss,
			100*r.Accuracy, 100*r.NMI, 100*r.ARI, 100*r.RandIndex, 100*r.AccuracyZ, 100*r.AccuracyLambda, r.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pct := func(get func(clusterRun) float64) string { return cluster.FormatMeanStd(rep.metric(get), 100) }
	lines := []string{
		"",
		fmt.Sprintf("mean ± std over %d run(s):", len(rep.Runs)),
		"  accuracy      " + pct(func(r clusterRun) float64 { return r.Accuracy }) + " %",
		"  NMI           " + pct(func(r clusterRun) float64 { return r.NMI }) + " %",
		"  ARI           " + pct(func(r clusterRun) float64 { return r.ARI }) + " %",
		"  Rand index    " + pct(func(r clusterRun) float64 { return r.RandIndex }) + " %",
		"  accuracy (z)  " + pct(func(r clusterRun) float64 { return r.AccuracyZ }) + " %",
		"  accuracy (λ)  " + pct(func(r clusterRun) float64 { return r.AccuracyLambda }) + " %",
		"  seconds       " + cluster.FormatMeanStd(rep.metric(func(r clusterRun) float64 { return r.Seconds }), 1),
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeUnscored is the table of runs on unlabelled data: no scores, the cluster sizes.
func (rep *clusterReport) writeUnscored(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tseed\tepochs\tloss\tcluster sizes\tseconds\t")
	for _, r := range rep.Runs {
		loss := "-"
		if len(r.Loss) > 0 {
			loss = fmt.Sprintf("%.5g", r.Loss[len(r.Loss)-1])
		}
		sizes := make([]int, rep.Clusters)
		for _, c := range r.assign {
			if c >= 0 && c < len(sizes) {
				sizes[c]++
			}
		}
		if r.assign == nil {
			sizes = nil // a reused run: its clusters are in its embeddings CSV
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%v\t%.2f\t\n", r.Run, r.Seed, r.Epochs, loss, sizes, r.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nno scores: the data have no class labels")
	return err
}

// scoreKeys are the JSON fields of clusterReport and clusterRun that hold scores.
var scoreKeys = []string{"accuracy", "nmi", "ari", "rand_index", "accuracy_z", "nmi_z", "ari_z", "rand_index_z",
	"accuracy_lambda", "nmi_lambda", "ari_lambda", "rand_index_lambda"}

// MarshalJSON leaves the scores out of the report of unlabelled data, which has none.
func (rep clusterReport) MarshalJSON() ([]byte, error) {
	type plain clusterReport // without this method
	b, err := json.Marshal(plain(rep))
	if err != nil || !rep.Unlabelled {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	runs, _ := m["runs"].([]any)
	for _, obj := range append([]any{m}, runs...) {
		for _, k := range scoreKeys {
			delete(obj.(map[string]any), k)
		}
	}
	return json.Marshal(m)
}
