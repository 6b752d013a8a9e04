package main

import (
	"archive/zip"
	"encoding/csv"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/cli"
)

// mixedGraphs is a folder mixing JSON, node-link JSON and edge lists (1-based and string ids),
// with labels.csv.
var mixedGraphs = filepath.Join("..", "..", "graphs", "testdata", "mixed")

// unlabelledTU writes MUTAG's structure files (no graph labels) into dir/MYDATA and also as
// dir/MYDATA.zip, and returns both paths.
func unlabelledTU(t *testing.T) (folder, archive string) {
	t.Helper()
	dir := t.TempDir()
	folder = filepath.Join(dir, "MYDATA")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	archive = filepath.Join(dir, "MYDATA.zip")
	zf, err := os.Create(archive)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for _, suffix := range []string{"_A.txt.gz", "_graph_indicator.txt.gz"} {
		b, err := fs.ReadFile(datasets.FS(), "MUTAG/MUTAG"+suffix)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, folder, "MYDATA"+suffix, string(b))
		w, err := zw.Create("MYDATA/MYDATA" + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	return folder, archive
}

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, p string) [][]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return rows
}

// TestClusterUnlabelledTU: a TU folder (or .zip) without graph labels clusters into --clusters
// groups, without scores; without --clusters it is a usage error that says so.
func TestClusterUnlabelledTU(t *testing.T) {
	folder, archive := unlabelledTU(t)
	train := []string{"--subset", "30", "--atoms", "3", "--layers", "5", "--epochs", "1", "--quiet"}
	outDir := filepath.Join(t.TempDir(), "out")
	out, _ := mustRun(t, append([]string{"cluster", "--tu", folder, "--clusters", "3", "--output-dir", outDir}, train...)...)
	if !strings.Contains(out, "K = 3") || !strings.Contains(out, "no scores") || strings.Contains(out, "accuracy") {
		t.Errorf("table of an unlabelled run:\n%s", out)
	}
	rows := readCSV(t, filepath.Join(outDir, "embeddings-run0.csv"))
	if len(rows) != 31 || rows[0][2] != "cluster" {
		t.Fatalf("embeddings CSV: %d rows, header %v", len(rows), rows[0])
	}
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		if r[1] != "" || !slices.Contains([]string{"0", "1", "2"}, r[2]) {
			t.Errorf("row %v: want no label and a cluster in 0..2", r)
		}
		seen[r[2]] = true
	}
	if len(seen) < 2 {
		t.Errorf("all 30 graphs in one cluster")
	}
	out, _ = mustRun(t, append([]string{"cluster", "--tu", archive, "--clusters", "2", "--json"}, train...)...)
	rep := decodeJSON(t, out)
	if rep["clusters"] != 2.0 || rep["unlabelled"] != true || rep["dataset"] != "MYDATA" {
		t.Errorf("JSON report of the .zip: clusters %v, unlabelled %v, dataset %v", rep["clusters"], rep["unlabelled"], rep["dataset"])
	}
	if _, ok := rep["accuracy"]; ok {
		t.Error("the report of unlabelled data has scores")
	}
	if runs, _ := rep["runs"].([]any); len(runs) != 1 || runs[0].(map[string]any)["nmi"] != nil || runs[0].(map[string]any)["seed"] != 1.0 {
		t.Errorf("runs of the unlabelled report: %v", rep["runs"])
	}
	_, stderr, code := runCLI(t, append([]string{"cluster", "--tu", folder}, train...)...)
	if code != cli.ExitUsage || !strings.Contains(stderr, "--clusters") {
		t.Errorf("no --clusters on unlabelled data: exit %d, stderr %q", code, stderr)
	}
}

// TestGraphsFolder: fit and embed read a folder mixing the three graph formats, and the
// embeddings CSV carries the labels of labels.csv.
func TestGraphsFolder(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.gwf")
	mustRun(t, "fit", "--graphs", mixedGraphs, "--atoms", "2", "--atom-size", "3", "--layers", "5", "--epochs", "2", "--quiet", "--output", model)
	emb := filepath.Join(dir, "e.csv")
	mustRun(t, "embed", "--model", model, "--graphs", mixedGraphs, "--output", emb, "--quiet")
	rows := readCSV(t, emb)
	if len(rows) != 7 {
		t.Fatalf("%d rows, want a header and 6 graphs", len(rows))
	}
	labels := map[string]string{}
	for _, r := range rows[1:] {
		labels[r[0]] = r[1]
	}
	if labels["pentagon.txt"] != "cycle" || labels["star.nodelink.json"] != "tree" || labels["friends.edges"] != "tree" {
		t.Errorf("labels %v", labels)
	}
	// Labelled by labels.csv, the folder clusters with scores by default.
	out, _ := mustRun(t, "cluster", "--graphs", mixedGraphs, "--atoms", "2", "--atom-size", "3", "--layers", "5", "--epochs", "1", "--quiet", "--json")
	if rep := decodeJSON(t, out); rep["clusters"] != 2.0 || rep["unlabelled"] != nil {
		t.Errorf("labelled folder: clusters %v, unlabelled %v", rep["clusters"], rep["unlabelled"])
	}
	for _, args := range [][]string{
		{"fit", "--graphs", mixedGraphs, "--dataset", "MUTAG", "--output", model},
		{"fit", "--graphs", mixedGraphs, "--features", "labels", "--output", model},
		{"cluster", "--graphs", mixedGraphs, "--clusters", "7"},
		{"cluster", "--graphs", mixedGraphs, "--clusters", "-1"},
	} {
		if _, stderr, code := runCLI(t, args...); code != cli.ExitUsage {
			t.Errorf("gwf %v: exit %d (%s), want a usage error", args, code, stderr)
		}
	}
}

// TestSubsetBeforeMemoryLimit: --subset is applied before --max-memory is checked, so that a
// subset of a collection too large as a whole can be read.
func TestSubsetBeforeMemoryLimit(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m")
	args := []string{"fit", "--dataset", "MUTAG", "--output", model, "--max-memory", "0.0001", "--atoms", "2", "--layers", "5", "--epochs", "1", "--quiet"}
	if _, stderr, code := runCLI(t, args...); code != cli.ExitError || !strings.Contains(stderr, "--max-memory") {
		t.Fatalf("all of MUTAG under 0.0001 GiB: exit %d, stderr %q", code, stderr)
	}
	mustRun(t, append(args, "--subset", "10")...)
}

// TestDatasetsDescribesData: gwf datasets with a data flag describes that collection.
func TestDatasetsDescribesData(t *testing.T) {
	// Its node-link files have a numeric node attribute, its edge lists none: said, not read around.
	if _, stderr, code := runCLI(t, "datasets", "--graphs", mixedGraphs); code != cli.ExitError ||
		!strings.Contains(stderr, "friends.edges: no numeric node attributes, while path.nodelink.json has 1") {
		t.Errorf("datasets --graphs mixed without --features: exit %d\n%s", code, stderr)
	}
	// Edge labels on some graphs only: left out, and said.
	partial := t.TempDir()
	for name, doc := range map[string]string{
		"a.json":     `{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1, "label": 2}]}`,
		"b.json":     `{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`,
		"labels.csv": "label,file\nx,a.json\ny,b.json\n",
	} {
		if err := os.WriteFile(filepath.Join(partial, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, _ := mustRun(t, "datasets", "--graphs", partial); !strings.Contains(out, ": edge labels left out: 1 of the 2 graphs have them, not b.json") {
		t.Errorf("datasets on partial edge labels:\n%s", out)
	}
	out, _ := mustRun(t, "datasets", "--graphs", mixedGraphs, "--features", "none", "--json")
	var infos []graphs.Description
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(infos) != 1 || infos[0].Name != "mixed" || infos[0].Graphs != 6 || infos[0].Classes != 2 || infos[0].MaxNodes != 5 {
		t.Errorf("datasets --graphs: %+v", infos)
	}
	out, _ = mustRun(t, "datasets", "--dataset", "mutag", "--features", "Labels", "--subset", "20")
	if !strings.Contains(out, "MUTAG") || !strings.Contains(out, " 20 ") || strings.Contains(out, "AIDS") || strings.Contains(out, "--features") {
		t.Errorf("datasets --dataset mutag --subset 20:\n%s", out)
	}
	// Without --features, the node features the data have are read and named.
	out, _ = mustRun(t, "datasets", "--dataset", "PROTEINS", "--subset", "20")
	if !strings.Contains(out, "node features read: --features both --standardize") || !strings.Contains(out, "  3         1") {
		t.Errorf("datasets --dataset PROTEINS without --features:\n%s", out)
	}
	// Read without features, a TU source still says which node features its files hold.
	out, _ = mustRun(t, "datasets", "--dataset", "PROTEINS", "--subset", "20", "--features", "none")
	if !strings.Contains(out, "PROTEINS also has node features (labels, attributes), not read here") {
		t.Errorf("datasets --dataset PROTEINS --features none:\n%s", out)
	}
	out, _ = mustRun(t, "datasets", "--dataset", "IMDB-BINARY", "--subset", "20", "--json")
	if err := json.Unmarshal([]byte(out), &infos); err != nil || len(infos) != 1 || infos[0].OfferedFeatures != nil {
		t.Errorf("datasets --dataset IMDB-BINARY --json (no node features): %v\n%s", err, out)
	}
	out, _ = mustRun(t, "datasets", "--dataset", "MUTAG", "--json")
	if err := json.Unmarshal([]byte(out), &infos); err != nil || len(infos) != 1 || !slices.Equal(infos[0].OfferedFeatures, []string{"labels"}) ||
		infos[0].Features != "--features labels --edge-labels" || infos[0].NodeLabels != 7 || !infos[0].EdgeLabels {
		t.Errorf("datasets --dataset MUTAG --json: %v\n%s", err, out)
	}
}

// A command that trains on structure only says which node features the data have, and how to
// use them; with features asked for it says nothing of the kind.
func TestTrainingNamesUnusedFeatures(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dataset, features, want string
	}{
		{"PROTEINS", "none", "PROTEINS has node labels and attributes, not used here (--features none: structure only, the paper's setting and this command's default); --features both --standardize uses them"},
		{"MUTAG", "none", "MUTAG has node labels, not used here (--features none: structure only, the paper's setting and this command's default); --features labels uses them"},
		{"MUTAG", "labels", ""},
		{"IMDB-BINARY", "none", ""},
	} {
		model := filepath.Join(dir, tc.dataset+"-"+tc.features+".json")
		_, stderr := mustRun(t, "fit", "--dataset", tc.dataset, "--subset", "6", "--features", tc.features,
			"--atoms", "2", "--layers", "2", "--epochs", "1", "--output", model)
		if got := strings.Contains(stderr, "not used here"); got != (tc.want != "") || !strings.Contains(stderr, tc.want) {
			t.Errorf("fit --dataset %s --features %s: want %q in\n%s", tc.dataset, tc.features, tc.want, stderr)
		}
	}
}
