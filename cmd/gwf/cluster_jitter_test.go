package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestClusterStartJitter: rings against stars (the README's quick start), which the paper's
// start clusters imperfectly because a cycle's GW transports stay at the product coupling,
// cluster exactly with --start-jitter; the model's report names the setting.
func TestClusterStartJitter(t *testing.T) {
	dir := t.TempDir()
	labels := []string{"file,label"}
	for i := range 24 {
		var b strings.Builder
		name := fmt.Sprintf("g%02d.txt", i)
		if i%2 == 0 {
			n := 8 + i%5
			for v := range n {
				fmt.Fprintf(&b, "%d %d\n", v, (v+1)%n)
			}
			labels = append(labels, name+",ring")
		} else {
			for v := 1; v <= 7+i%5; v++ {
				fmt.Fprintf(&b, "0 %d\n", v)
			}
			labels = append(labels, name+",star")
		}
		writeFile(t, dir, name, b.String())
	}
	writeFile(t, dir, "labels.csv", strings.Join(labels, "\n")+"\n")
	out, _ := mustRun(t, "cluster", "--graphs", dir, "--clusters", "2", "--start-jitter", "0.01", "--json", "-q")
	rep := decodeJSON(t, out)
	if acc := rep["accuracy_lambda"].(map[string]any)["mean"]; acc != 1.0 {
		t.Errorf("rings and stars with --start-jitter 0.01: accuracy %v, want 1", acc)
	}
	if cfg := rep["config"].(map[string]any); cfg["start_jitter"] != 0.01 {
		t.Errorf("config %v, want start_jitter 0.01", cfg)
	}
}
