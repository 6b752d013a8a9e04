package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestPartialAttributesDefaults: networkx SBM graphs carry a "block" attribute on each node;
// one graph has an isolated node added without it. With the default features, 'gwf datasets'
// and 'gwf classify' read the folder, leaving "block" out, and say so; with --features
// attributes the folder is refused, the node named by its id. Before, both refused the
// folder with defaults, naming the node by its position.
func TestPartialAttributesDefaults(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		class := i % 2
		var nodes, links []string
		for v := range 6 {
			nodes = append(nodes, fmt.Sprintf(`{"id": %d, "block": %d}`, v, v%2))
			for u := range v {
				if (u%2 == v%2) == (class == 0) || (u+v+i)%3 == 0 {
					links = append(links, fmt.Sprintf(`{"source": %d, "target": %d}`, u, v))
				}
			}
		}
		if i == 5 {
			nodes = append(nodes, `{"id": 999}`)
		}
		writeFile(t, dir, fmt.Sprintf("g%02d.json", i), fmt.Sprintf(`{"graph": {"label": %d}, "nodes": [%s], "links": [%s]}`,
			class, strings.Join(nodes, ", "), strings.Join(links, ", ")))
	}
	const note = `numeric node attribute \"block\" left out of the node features: node 999 of g05.json lacks it, node 0 has it`
	out, _ := mustRun(t, "datasets", "--graphs", dir)
	if !strings.Contains(out, strings.ReplaceAll(note, `\"`, `"`)) {
		t.Errorf("datasets does not say what it left out:\n%s", out)
	}
	_, logs := mustRun(t, "classify", "--graphs", dir)
	if !strings.Contains(logs, note) || !strings.Contains(logs, "node features: --features none") {
		t.Errorf("classify does not say what it left out:\n%s", logs)
	}
	_, stderr, code := runCLI(t, "classify", "--graphs", dir, "--features", "attributes")
	if code == 0 || !strings.Contains(stderr, `node 999 lacks the numeric attribute "block" that node 0 has`) {
		t.Errorf("--features attributes: exit %d\n%s", code, stderr)
	}
}
