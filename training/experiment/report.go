package experiment

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/training"
)

// RunResult is one run of the experiment: one seed of a method, its scores and its cost. The
// unsuffixed scores are those of the chosen embedding (GWF) or of the baseline's clusters; all
// scores are 0 when the graphs have no labels.
type RunResult struct {
	Run            int       `json:"run"`
	Seed           uint64    `json:"seed"`
	Accuracy       float64   `json:"accuracy"`
	NMI            float64   `json:"nmi"`
	ARI            float64   `json:"ari"`
	RandIndex      float64   `json:"rand_index"`
	AccuracyZ      float64   `json:"accuracy_z,omitempty"`
	NMIZ           float64   `json:"nmi_z,omitempty"`
	ARIZ           float64   `json:"ari_z,omitempty"`
	RandIndexZ     float64   `json:"rand_index_z,omitempty"`
	AccuracyLambda float64   `json:"accuracy_lambda,omitempty"`
	NMILambda      float64   `json:"nmi_lambda,omitempty"`
	ARILambda      float64   `json:"ari_lambda,omitempty"`
	RandLambda     float64   `json:"rand_index_lambda,omitempty"`
	Seconds        float64   `json:"seconds"`          // training (GWF) or clustering (baselines) wall time
	Epochs         int       `json:"epochs,omitempty"` // GWF
	Loss           []float64 `json:"loss,omitempty"`   // GWF: mean loss per epoch
	GWDs           int       `json:"gwds,omitempty"`   // baselines: GW discrepancies computed
	// Assign is the cluster of every graph (not saved in the JSON).
	Assign []int `json:"-"`
}

// MeanStd summarises one metric over the runs.
type MeanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// Report is the outcome of Run: every run and the mean ± std over the runs.
type Report struct {
	Method         Method          `json:"method"`
	Dataset        string          `json:"dataset"`
	Graphs         int             `json:"graphs"`
	Classes        int             `json:"classes"` // distinct labels (0: unlabelled, no scores)
	Clusters       int             `json:"clusters"`
	Unlabelled     bool            `json:"unlabelled,omitempty"` // no scores: the graphs have no class labels
	Features       string          `json:"features"`
	Embedding      string          `json:"embedding,omitempty"` // GWF: the embedding of the main scores
	Trainer        string          `json:"trainer,omitempty"`   // GWF: Options.Trainer's name ("": the paper's free embeddings)
	KMeansRestarts int             `json:"kmeans_restarts"`
	Config         training.Config `json:"config"` // of the first run; run r uses seed Config.Seed + r
	Runs           []RunResult     `json:"runs"`
	Accuracy       MeanStd         `json:"accuracy"`
	NMI            MeanStd         `json:"nmi"`
	ARI            MeanStd         `json:"ari"`
	RandIndex      MeanStd         `json:"rand_index"`
	AccuracyZ      MeanStd         `json:"accuracy_z"`
	AccuracyLambda MeanStd         `json:"accuracy_lambda"`
	Seconds        MeanStd         `json:"seconds"`
	Epochs         int             `json:"epochs,omitempty"`
	Loss           []float64       `json:"loss,omitempty"` // of the first run
	GWDs           int             `json:"gwds,omitempty"` // per run (FGWK: computed once, shared by the runs)
	Interrupted    bool            `json:"interrupted,omitempty"`
	// Version is the build of gwf that made the report (buildinfo.Version).
	Version string `json:"gwf_version,omitempty"`
}

// Scored reports whether the runs were scored against labels.
func (rep *Report) Scored() bool { return !rep.Unlabelled }

// scoreKeys are the JSON fields of Report and RunResult that hold scores.
var scoreKeys = []string{"accuracy", "nmi", "ari", "rand_index", "accuracy_z", "nmi_z", "ari_z", "rand_index_z",
	"accuracy_lambda", "nmi_lambda", "ari_lambda", "rand_index_lambda"}

// MarshalJSON leaves the scores out of the report of unlabelled graphs, which has none.
func (rep Report) MarshalJSON() ([]byte, error) {
	type plain Report // without this method
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

// metric collects one value per run.
func (rep *Report) metric(get func(RunResult) float64) []float64 {
	xs := make([]float64, len(rep.Runs))
	for i, r := range rep.Runs {
		xs[i] = get(r)
	}
	return xs
}

// summarise fills in the means and standard deviations over the runs.
func (rep *Report) summarise() {
	ms := func(get func(RunResult) float64) MeanStd {
		mean, std := meanstd.Of(rep.metric(get))
		return MeanStd{Mean: mean, Std: std}
	}
	rep.Accuracy = ms(func(r RunResult) float64 { return r.Accuracy })
	rep.NMI = ms(func(r RunResult) float64 { return r.NMI })
	rep.ARI = ms(func(r RunResult) float64 { return r.ARI })
	rep.RandIndex = ms(func(r RunResult) float64 { return r.RandIndex })
	rep.AccuracyZ = ms(func(r RunResult) float64 { return r.AccuracyZ })
	rep.AccuracyLambda = ms(func(r RunResult) float64 { return r.AccuracyLambda })
	rep.Seconds = ms(func(r RunResult) float64 { return r.Seconds })
	if len(rep.Runs) > 0 {
		rep.Loss, rep.GWDs = rep.Runs[0].Loss, rep.Runs[0].GWDs
	}
}

// WriteJSON writes the report as indented JSON (scores as fractions).
func (rep *Report) WriteJSON(w io.Writer) error { return writeJSON(w, rep) }

// WriteTable writes one line per run and the mean ± std over the runs; scores in percent.
func (rep *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes, node features: %s; %s\n", rep.Dataset, rep.Graphs, rep.Classes, rep.Features, rep.describe())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	gwf := rep.Method == GWF
	cols := []string{"run", "seed"}
	if gwf {
		cols = append(cols, "epochs", "loss")
	}
	if rep.Scored() {
		cols = append(cols, "acc %", "NMI %", "ARI %", "RI %")
		if gwf {
			cols = append(cols, "acc z %", "acc λ %")
		}
	}
	if !rep.Scored() {
		cols = append(cols, "cluster sizes")
	}
	if !gwf {
		cols = append(cols, "GWDs")
	}
	fmt.Fprintln(tw, strings.Join(append(cols, "seconds"), "\t")+"\t")
	for _, r := range rep.Runs {
		row := []string{fmt.Sprint(r.Run), fmt.Sprint(r.Seed)}
		if gwf {
			loss := "-"
			if len(r.Loss) > 0 {
				loss = fmt.Sprintf("%.5g", r.Loss[len(r.Loss)-1])
			}
			row = append(row, fmt.Sprint(r.Epochs), loss)
		}
		if rep.Scored() {
			for _, v := range []float64{r.Accuracy, r.NMI, r.ARI, r.RandIndex} {
				row = append(row, fmt.Sprintf("%.2f", 100*v))
			}
			if gwf {
				row = append(row, fmt.Sprintf("%.2f", 100*r.AccuracyZ), fmt.Sprintf("%.2f", 100*r.AccuracyLambda))
			}
		}
		if !rep.Scored() {
			row = append(row, rep.clusterSizes(r))
		}
		if !gwf {
			row = append(row, fmt.Sprint(r.GWDs))
		}
		fmt.Fprintln(tw, strings.Join(append(row, fmt.Sprintf("%.2f", r.Seconds)), "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pct := func(get func(RunResult) float64) string { return meanstd.Format(rep.metric(get), 100) + " %" }
	lines := []string{"", fmt.Sprintf("mean ± std over %d run(s):", len(rep.Runs))}
	if rep.Scored() {
		lines = append(lines,
			"  accuracy      "+pct(func(r RunResult) float64 { return r.Accuracy }),
			"  NMI           "+pct(func(r RunResult) float64 { return r.NMI }),
			"  ARI           "+pct(func(r RunResult) float64 { return r.ARI }),
			"  Rand index    "+pct(func(r RunResult) float64 { return r.RandIndex }))
		if gwf {
			lines = append(lines,
				"  accuracy (z)  "+pct(func(r RunResult) float64 { return r.AccuracyZ }),
				"  accuracy (λ)  "+pct(func(r RunResult) float64 { return r.AccuracyLambda }))
		}
	}
	lines = append(lines, "  seconds       "+meanstd.Format(rep.metric(func(r RunResult) float64 { return r.Seconds }), 1))
	if !rep.Scored() {
		lines = append(lines, "", "no scores: the data have no class labels")
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}

// clusterSizes is the number of graphs in each cluster of run r ("-" for a reused run, whose
// clusters are in its embeddings CSV).
func (rep *Report) clusterSizes(r RunResult) string {
	if r.Assign == nil {
		return "-"
	}
	sizes := make([]int, rep.Clusters)
	for _, c := range r.Assign {
		if c >= 0 && c < len(sizes) {
			sizes[c]++
		}
	}
	return fmt.Sprint(sizes)
}

// describe says how the graphs were clustered.
func (rep *Report) describe() string {
	c := rep.Config
	gwd := fmt.Sprintf("%s γ=%g M=%d", c.Solver, c.Gamma, c.Layers)
	if c.FeatureWeight != 1 {
		gwd += fmt.Sprintf(", feature weight %.4g", c.FeatureWeight)
	}
	if rep.Method == GWF {
		emb := ""
		if rep.Trainer != "" {
			emb = ", embeddings by a " + rep.Trainer + " encoder"
		}
		return fmt.Sprintf("GWF (K=%d atoms, %s, L=%d, lr=%g, %d epochs, batch %d%s), clustering %s with K-means (K = %d, %d restarts)",
			c.Atoms, gwd, c.GWBLayers, c.LearningRate, c.Epochs, c.Batch, emb, rep.Embedding, rep.Clusters, rep.KMeansRestarts)
	}
	return fmt.Sprintf("%s with %s into %d clusters", rep.Method, gwd, rep.Clusters)
}

// ReadReport reads Dir/report.json as written by Run.
func ReadReport(dir string) (*Report, error) {
	p := filepath.Join(dir, "report.json")
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &rep, nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
