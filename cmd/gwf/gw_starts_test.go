package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// TestGWSymmetricGraphs: gw --solver cg gives 0 between a 6-cycle, a 3×3 grid or K3,3 and a
// relabelled copy (the anchored starts); the product start alone (--anchors 0) does not, and
// a start given with --init that is the match gives 0 from it alone.
func TestGWSymmetricGraphs(t *testing.T) {
	dir := t.TempDir()
	perm := []int{3, 0, 4, 1, 5, 2, 8, 6, 7}
	graphsByName := map[string][][2]int{
		"c6":   {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}},
		"grid": {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8}},
		"k33":  {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}},
	}
	stuck := 0
	for name, edges := range graphsByName {
		n := 0
		var a, b strings.Builder
		for _, e := range edges {
			n = max(n, e[0]+1, e[1]+1)
		}
		p := relabelWithin(perm, n)
		for _, e := range edges {
			fmt.Fprintf(&a, "%d %d\n", e[0], e[1])
			fmt.Fprintf(&b, "%d %d\n", p[e[0]], p[e[1]])
		}
		pa, pb := writeFile(t, dir, name+"-a.edges", a.String()), writeFile(t, dir, name+"-b.edges", b.String())
		out, _ := mustRun(t, "gw", pa, pb, "--solver", "cg", "--json")
		if obj := decodeJSON(t, out)["objective"].(float64); math.Abs(obj) > 1e-12 {
			t.Errorf("%s: objective %v, want 0", name, obj)
		}
		out, _ = mustRun(t, "gw", pa, pb, "--solver", "cg", "--json", "--anchors", "0")
		if obj := decodeJSON(t, out)["objective"].(float64); obj > 1e-12 {
			stuck++
		}
		// The match itself as --init, a CSV of the coupling (1/n on i → p[i]).
		var init strings.Builder
		for i := range n {
			row := make([]string, n)
			for j := range row {
				row[j] = "0"
				if j == p[i] {
					row[j] = fmt.Sprint(1 / float64(n))
				}
			}
			init.WriteString(strings.Join(row, ",") + "\n")
		}
		start := writeFile(t, dir, name+"-start.csv", init.String())
		out, _ = mustRun(t, "gw", pa, pb, "--solver", "cg", "--json", "--anchors", "0", "--init", start)
		res := decodeJSON(t, out)
		if obj := res["objective"].(float64); math.Abs(obj) > 1e-12 || res["start"] != start {
			t.Errorf("%s from the match: objective %v, start %v", name, obj, res["start"])
		}
	}
	if stuck == 0 {
		t.Error("--anchors 0 found every match: the test cannot fail")
	}
	c6a := dir + "/c6-a.edges"
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--init", writeFile(t, dir, "small.csv", "1,0\n0,1\n")}, cli.ExitError, "want 6×6"},
		{[]string{"--init", writeFile(t, dir, "mass.csv", strings.Repeat("1,0,0,0,0,0\n", 6))}, cli.ExitError, "sums to"},
		{[]string{"--init", writeFile(t, dir, "start.txt", "1")}, cli.ExitUsage, ".npy, .npz or .csv"},
		{[]string{"--init", dir + "/none.csv"}, cli.ExitError, "no such file"},
		{[]string{"--anchors", "-1"}, cli.ExitUsage, "anchored starts"},
		{[]string{"--solver", "ppa", "--anchors", "3"}, cli.ExitUsage, "--solver cg"},
	} {
		args := append([]string{"gw", c6a, c6a, "--solver", "cg"}, tc.args...)
		if _, stderr, code := runCLI(t, args...); code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, %s; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

// relabelWithin returns perm restricted to 0..n−1 (the order in which perm lists them).
func relabelWithin(perm []int, n int) []int {
	var order []int
	for _, v := range perm {
		if v < n {
			order = append(order, v)
		}
	}
	return order
}

// TestGWNodeCounts: --nodes keeps nodes in no edge: a path 0–1–2 with 4 nodes against itself
// with 3 is no longer 0; --nodes with named ids or the wrong count is refused.
func TestGWNodeCounts(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "p.edges", "0 1\n1 2\n")
	same, _ := mustRun(t, "gw", path, path, "--solver", "cg", "--json")
	padded, _ := mustRun(t, "gw", path, path, "--solver", "cg", "--json", "--nodes", "4,0")
	if o := decodeJSON(t, same)["objective"].(float64); math.Abs(o) > 1e-12 {
		t.Errorf("same graph: %v", o)
	}
	res := decodeJSON(t, padded)
	if o := res["objective"].(float64); o < 1e-3 || res["nodes_a"].(float64) != 4 || res["nodes_b"].(float64) != 3 {
		t.Errorf("with an isolated node: objective %v, nodes %v and %v", o, res["nodes_a"], res["nodes_b"])
	}
	for _, args := range [][]string{{"--nodes", "4"}, {"--nodes", "-1,3"}, {"--nodes", "4,4", "--ids", "names"}} {
		if _, _, code := runCLI(t, append([]string{"gw", path, path}, args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if _, stderr, code := runCLI(t, "gw", path, path, "--nodes", "2,3"); code != cli.ExitError || !strings.Contains(stderr, "out of range") {
		t.Errorf("--nodes 2,3 for ids up to 2: exit %d, %s", code, stderr)
	}
}
