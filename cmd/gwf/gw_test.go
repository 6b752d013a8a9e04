package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

func TestGWJSON(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.json", `{"adjacency": [[0,1,1],[1,0,1],[1,1,0]]}`)
	b := writeFile(t, dir, "b.json", `{"adjacency": [[0,1,0,0],[1,0,1,0],[0,1,0,1],[0,0,1,0]]}`)
	for _, solver := range []string{"ppa", "badmm"} {
		out, _ := mustRun(t, "gw", a, b, "--json", "--solver", solver)
		var res struct {
			Objective *float64    `json:"objective"`
			Transport [][]float64 `json:"transport"`
			Solver    string      `json:"solver"`
			Gamma     float64     `json:"gamma"`
			Layers    int         `json:"layers"`
			Inner     *int        `json:"inner"`
			Rows      string      `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", solver, err, out)
		}
		if res.Objective == nil || math.IsNaN(*res.Objective) || *res.Objective < 0 {
			t.Errorf("%s: objective %v", solver, res.Objective)
		}
		wantGamma, wantInner := 0.01, true
		if solver == "badmm" {
			wantGamma, wantInner = 1, false
		}
		if res.Solver != solver || res.Gamma != wantGamma || res.Layers != 50 || (res.Inner != nil) != wantInner || res.Rows != "nodes of A" {
			t.Errorf("%s: solver %q, gamma %v, layers %d, inner %v, rows %q", solver, res.Solver, res.Gamma, res.Layers, res.Inner, res.Rows)
		}
		if len(res.Transport) != 3 {
			t.Fatalf("%s: %d transport rows, want 3", solver, len(res.Transport))
		}
		for i, row := range res.Transport {
			s := 0.0
			for _, v := range row {
				if v < 0 {
					t.Errorf("%s: negative transport entry %v", solver, v)
				}
				s += v
			}
			if len(row) != 4 || math.Abs(s-1.0/3) > 1e-9 {
				t.Errorf("%s: row %d has %d entries summing to %v, want 4 summing to 1/3", solver, i, len(row), s)
			}
		}
	}

	out, _ := mustRun(t, "gw", a, b, "--solver", "ppa", "--gamma", "0.05", "--layers", "20", "--inner", "2")
	if !strings.HasPrefix(out, "objective: ") || !strings.Contains(out, "A: 3 nodes, B: 4 nodes") || !strings.Contains(out, "γ = 0.05, M = 20, 2 sweeps") {
		t.Errorf("plain output:\n%s", out)
	}
}

// TestGWDefaultSolverOnSymmetricGraphs: the default (cg) gives a graph with symmetries a zero
// discrepancy to itself, where the paper's PPA from the product coupling does not; PPA's
// settings without --solver ppa are refused rather than ignored.
func TestGWDefaultSolverOnSymmetricGraphs(t *testing.T) {
	dir := t.TempDir()
	cycle := writeFile(t, dir, "c6.txt", "0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n")
	out, _ := mustRun(t, "gw", cycle, cycle, "--json")
	if res := decodeJSON(t, out); res["solver"] != "cg" || math.Abs(res["objective"].(float64)) > 1e-12 {
		t.Errorf("default: solver %v, objective %v; want cg and 0", res["solver"], res["objective"])
	}
	out, _ = mustRun(t, "gw", cycle, cycle, "--json", "--solver", "ppa")
	if res := decodeJSON(t, out); !(res["objective"].(float64) > 0.1) {
		t.Errorf("ppa from the product coupling: objective %v, want the symmetric fixed point (4/9)", res["objective"])
	}
	for _, flag := range []string{"--gamma", "--inner", "--start-jitter"} {
		if _, stderr, code := runCLI(t, "gw", cycle, cycle, flag, "2"); code != cli.ExitUsage || !strings.Contains(stderr, "--solver ppa") {
			t.Errorf("%s without --solver: exit %d: %s", flag, code, stderr)
		}
	}
}

func TestGWEdgeListsAndFeatures(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "path.txt", "# a path\n0 1\n1 2\n2 3\n")
	star := writeFile(t, dir, "star.edges", "0 1\n0 2\n0 3 2.5\n")
	out, _ := mustRun(t, "gw", path, star, "--json")
	if res := decodeJSON(t, out); res["nodes_a"] != 4.0 || res["nodes_b"] != 4.0 {
		t.Errorf("edge lists: %v nodes and %v nodes, want 4 and 4", res["nodes_a"], res["nodes_b"])
	}
	mustRun(t, "gw", path, star, "--input-format", "edgelist", "--directed")

	fa := writeFile(t, dir, "fa.json", `{"adjacency": [[0,1],[1,0]], "features": [[0.5],[1.5]]}`)
	fb := writeFile(t, dir, "fb.json", `{"adjacency": [[0,2,0],[2,0,1],[0,1,0]], "features": [[1],[0],[2]], "mu": [0.25, 0.5, 0.25]}`)
	out, _ = mustRun(t, "gw", fa, fb, "--json", "--feature-weight", "0.5")
	if res := decodeJSON(t, out); res["feature_dim"] != 1.0 || res["feature_weight"] != 0.5 {
		t.Errorf("fused GW: feature_dim %v, feature_weight %v", res["feature_dim"], res["feature_weight"])
	}
	// auto: the balanced weight of the two graphs, the objective of that weight given.
	out, _ = mustRun(t, "gw", fa, fb, "--json", "--feature-weight", "auto")
	ga, _ := graphs.ReadFile(fa, graphs.FileOptions{Features: graphs.FeaturesAttributes})
	gb, _ := graphs.ReadFile(fb, graphs.FileOptions{Features: graphs.FeaturesAttributes})
	bal, err := training.BalanceFeatures(graphs.Slice([]*graphs.Graph{ga, gb}))
	if err != nil {
		t.Fatal(err)
	}
	auto := decodeJSON(t, out)
	out, _ = mustRun(t, "gw", fa, fb, "--json", "--feature-weight", strconv.FormatFloat(bal.Weight, 'g', -1, 64))
	if given := decodeJSON(t, out); auto["feature_weight"] != bal.Weight || auto["objective"] != given["objective"] {
		t.Errorf("--feature-weight auto: weight %v, objective %v; the balanced weight %v gives %v", auto["feature_weight"], auto["objective"], bal.Weight, given["objective"])
	}
	plain := writeFile(t, dir, "plain.json", `{"adjacency": [[0,1],[1,0]]}`)
	_, stderr, code := runCLI(t, "gw", fa, plain)
	if code != cli.ExitError || !strings.Contains(stderr, "has node features but") {
		t.Errorf("features on one side: exit %d: %s", code, stderr)
	}
	wide := writeFile(t, dir, "wide.json", `{"adjacency": [[0,1],[1,0]], "features": [[1,2],[3,4]]}`)
	if _, stderr, code := runCLI(t, "gw", fa, wide); code != cli.ExitError || !strings.Contains(stderr, "dimensions differ") {
		t.Errorf("feature dimensions differ: exit %d: %s", code, stderr)
	}
}

func TestGWBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.json", `{"adjacency": [[0,1],[1,0]]}`)
	bad := map[string]string{
		"empty.json":     "",
		"truncated.json": `{"adjacency": [[0,1],[1`,
		"notjson.json":   "hello",
		"array.json":     `[1, 2, 3]`,
		"ragged.json":    `{"adjacency": [[0,1],[1]]}`,
		"negative.json":  `{"adjacency": [[0,-1],[1,0]]}`,
		"nonsquare.json": `{"adjacency": [[0,1,1],[1,0,1]]}`,
		"nonodes.json":   `{"adjacency": []}`,
		"badmu.json":     `{"adjacency": [[0,1],[1,0]], "mu": [0.9, 0.9]}`,
		"zeromu.json":    `{"adjacency": [[0,1],[1,0]], "mu": [1, 0]}`,
		"featrows.json":  `{"adjacency": [[0,1],[1,0]], "features": [[1]]}`,
		"unknown.json":   `{"adjacency": [[0,1],[1,0]], "labels": 3}`,
		"huge.json":      `{"adjacency": [[0,1e400],[1,0]]}`,
		"edges.txt":      "0 1\n1 two\n",
		"negid.txt":      "0 -1\n",
		"bigid.txt":      "0 99999999999\n",
		"nanweight.txt":  "0 1 NaN\n",
		"emptyedges.txt": "# nothing\n",
	}
	for name, content := range bad {
		p := writeFile(t, dir, name, content)
		for _, args := range [][]string{{"gw", p, good}, {"gw", good, p, "--json"}} {
			out, stderr, code := runCLI(t, args...)
			if code != cli.ExitError || !strings.HasPrefix(stderr, "gwf: graph ") || out != "" {
				t.Errorf("gw with %s: exit %d, stdout %q, stderr %q", name, code, out, stderr)
			}
		}
	}
	if _, stderr, code := runCLI(t, "gw", good, dir+"/missing.json"); code != cli.ExitError || !strings.Contains(stderr, "missing.json") {
		t.Errorf("missing file: exit %d: %s", code, stderr)
	}
	big := writeFile(t, dir, "big.txt", "0 1\n1 20\n")
	if _, stderr, code := runCLI(t, "gw", good, big, "--max-nodes", "10"); code != cli.ExitError || !strings.Contains(stderr, "limit") {
		t.Errorf("graph over --max-nodes: exit %d: %s", code, stderr)
	}
}

// TestGWSolversAndFeasibility: every result reports its marginal error; cg and --tol return
// feasible transports; a graph against itself is at 0 with cg.
func TestGWSolversAndFeasibility(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.json", `{"adjacency": [[0,1,1,0,0],[1,0,1,0,0],[1,1,0,1,0],[0,0,1,0,1],[0,0,0,1,0]]}`)
	b := writeFile(t, dir, "b.json", `{"adjacency": [[0,2,0,0],[2,0,1,0],[0,1,0,1],[0,0,1,0]], "mu": [0.1, 0.2, 0.3, 0.4]}`)
	type result struct {
		Objective     float64     `json:"objective"`
		Transport     [][]float64 `json:"transport"`
		MarginalError *float64    `json:"marginal_error"`
		Gamma         *float64    `json:"gamma"`
		Iterations    int         `json:"iterations"`
		Rounded       bool        `json:"rounded"`
		SweepCapHits  int         `json:"sweep_cap_hits"`
	}
	run := func(args ...string) result {
		out, _ := mustRun(t, append([]string{"gw", "--json"}, args...)...)
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.MarginalError == nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return r
	}
	feasible := func(name string, r result, mus, mut []float64, tol float64) {
		t.Helper()
		cols := make([]float64, len(mut))
		worst := 0.0
		for i, row := range r.Transport {
			s := 0.0
			for j, v := range row {
				s += v
				cols[j] += v
			}
			worst = math.Max(worst, math.Abs(s-mus[i]))
		}
		for j, c := range cols {
			worst = math.Max(worst, math.Abs(c-mut[j]))
		}
		if worst > tol || math.Abs(worst-*r.MarginalError) > 1e-12 {
			t.Errorf("%s: transport off the marginals by %v, reported %v (want ≤ %v)", name, worst, *r.MarginalError, tol)
		}
	}
	mus, mut := []float64{0.2, 0.2, 0.2, 0.2, 0.2}, []float64{0.1, 0.2, 0.3, 0.4}
	paper := run(a, b)
	feasible("paper", paper, mus, mut, 1)
	cg := run(a, b, "--solver", "cg")
	if cg.Gamma != nil || cg.Iterations < 1 {
		t.Errorf("cg: gamma %v, %d iterations", cg.Gamma, cg.Iterations)
	}
	feasible("cg", cg, mus, mut, 1e-9)
	for _, solver := range []string{"ppa", "badmm"} {
		r := run(a, b, "--solver", solver, "--tol", "1e-9")
		if !r.Rounded {
			t.Errorf("%s --tol: not rounded", solver)
		}
		feasible(solver+" --tol", r, mus, mut, 1e-12)
		// Without rounding, the tolerance is met unless the sweep cap says otherwise (BADMM's
		// transport here has entries of 1e-30 that Sinkhorn scales slowly).
		r = run(a, b, "--solver", solver, "--tol", "1e-9", "--round=false")
		if r.SweepCapHits == 0 {
			feasible(solver+" --tol --round=false", r, mus, mut, 1e-9)
		} else {
			feasible(solver+" --tol --round=false", r, mus, mut, 1e-3)
		}
	}
	if self := run(a, a, "--solver", "cg"); self.Objective > 1e-12 {
		t.Errorf("cg: GW(A,A) = %v", self.Objective)
	}
	out, _ := mustRun(t, "gw", a, b, "--solver", "cg")
	if !strings.Contains(out, "marginal error: ") || !strings.Contains(out, "(cg, ") {
		t.Errorf("plain cg output:\n%s", out)
	}
	for _, args := range [][]string{
		{"--solver", "sinkhorn"}, {"--layers", "1000000000"}, {"--inner", "100000"},
		{"--tol", "-1"}, {"--max-sweeps", "-3"}, {"--solver", "cg", "--layers", "0"},
	} {
		_, stderr, code := runCLI(t, append([]string{"gw", a, b}, args...)...)
		if code != cli.ExitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestGWEdgeListIDs: 1-based or named edge lists are read with --ids; read as 0-based (the
// default) they are refused with a hint naming the flag.
func TestGWEdgeListIDs(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "path.txt", "1 2\n2 3\n3 4\n")
	named := writeFile(t, dir, "named.edges", "a b\nb c\nc d\n")
	if _, stderr, code := runCLI(t, "gw", path, path); code != cli.ExitError || !strings.Contains(stderr, "--ids one") {
		t.Errorf("1-based file read as 0-based: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{{path, path, "--ids", "one", "--solver", "cg"}, {named, path, "--ids", "names", "--solver", "cg"}} {
		out, _ := mustRun(t, append([]string{"gw", "--json"}, args...)...)
		r := decodeJSON(t, out)
		if r["nodes_a"] != 4.0 || r["nodes_b"] != 4.0 || r["objective"].(float64) > 1e-9 {
			t.Errorf("gw %v: %v nodes and %v nodes, objective %v; want two 4-node paths at distance 0", args, r["nodes_a"], r["nodes_b"], r["objective"])
		}
	}
	if _, _, code := runCLI(t, "gw", path, path, "--ids", "two"); code != cli.ExitUsage {
		t.Errorf("--ids two: exit %d, want a usage error", code)
	}
}

// TestGWFormats: gw reads the formats a --graphs folder reads (node-link JSON, GraphML, GML),
// by extension or --format, and the same graph in two formats is at discrepancy 0.
func TestGWFormats(t *testing.T) {
	dir := filepath.Join("..", "..", "graphs", "testdata", "formats")
	nodeLink := filepath.Join(t.TempDir(), "nl.json")
	writeFile(t, filepath.Dir(nodeLink), "nl.json", `{"directed": false, "multigraph": false, "graph": {},
		"nodes": [{"id": 0}, {"id": 1}, {"id": 2}], "links": [{"source": 0, "target": 1}, {"source": 1, "target": 2}]}`)
	for _, args := range [][]string{
		{filepath.Join(dir, "unweighted.graphml"), filepath.Join(dir, "unweighted.gml")},
		{filepath.Join(dir, "weighted.gml"), filepath.Join(dir, "weighted.graphml")},
		{nodeLink, nodeLink},
	} {
		out, _ := mustRun(t, append([]string{"gw", "--solver", "cg", "--json"}, args...)...)
		obj, ok := decodeJSON(t, out)["objective"].(float64)
		if !ok || math.Abs(obj) > 1e-12 {
			t.Errorf("gw %v: objective %v, want 0 (the same graph)", args, decodeJSON(t, out)["objective"])
		}
	}
	if _, _, code := runCLI(t, "gw", "--format", "yaml", nodeLink, nodeLink); code != cli.ExitUsage {
		t.Errorf("--format yaml: exit %d", code)
	}
}
