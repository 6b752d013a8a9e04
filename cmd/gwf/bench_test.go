package main

import (
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

func TestBenchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("times real kernels")
	}
	out, _ := mustRun(t, "bench", "--min-time", "1ms", "--dataset", "mutag", "--count", "40", "--json", "-q")
	rep := decodeJSON(t, out)
	if g, ok := rep["gemm_gflops"].(float64); !ok || g <= 0 {
		t.Errorf("gemm_gflops = %v", rep["gemm_gflops"])
	}
	if rep["kernels"] != "avx2+fma" && rep["kernels"] != "go" {
		t.Errorf("kernels = %v", rep["kernels"])
	}
	if g, ok := rep["gonum_gemm_gflops"].(float64); !ok || g <= 0 {
		t.Errorf("gonum_gemm_gflops = %v", rep["gonum_gemm_gflops"])
	}
	kernels, _ := rep["kernel_timings"].([]any)
	if len(kernels) != 10 {
		t.Fatalf("%d kernels, want 10 (4 sparse and 4 dense GWD sizes, GWB, loss)", len(kernels))
	}
	for _, k := range kernels {
		k := k.(map[string]any)
		if ms, _ := k["ms"].(float64); ms <= 0 {
			t.Errorf("%v: ms = %v", k["name"], k["ms"])
		}
	}
	epochs, _ := rep["epochs"].([]any)
	if len(epochs) != 1 {
		t.Fatalf("%d epochs, want 1", len(epochs))
	}
	e := epochs[0].(map[string]any)
	if e["dataset"] != "MUTAG" || e["solver"] != "ppa" || e["graphs"] != 188.0 || e["timed_graphs"] != 40.0 {
		t.Errorf("epoch %v: want MUTAG, ppa, 188 graphs, 40 timed", e)
	}
	if s, _ := e["seconds_per_epoch"].(float64); s <= 0 {
		t.Errorf("seconds_per_epoch = %v", e["seconds_per_epoch"])
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--dataset", "NOPE"},
		{"bench", "--count", "-1"},
		{"bench", "--min-time", "0s"},
		{"bench", "--workers", "-2"},
		{"bench", "--solver", "sinkhorn"},
		{"bench", "--tol", "-1"},
	} {
		if _, _, code := runCLI(t, args...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
}

func TestBenchCurve(t *testing.T) {
	out, _ := mustRun(t, "bench", "--kernels=false", "--curve", "--curve-max", "50", "--min-time", "1ms", "--json", "-q")
	kernels, _ := decodeJSON(t, out)["kernel_timings"].([]any)
	want := []string{"curve ppa N=20", "curve cg N=20", "curve ppa N=50", "curve cg N=50"}
	if len(kernels) != len(want) {
		t.Fatalf("%d timings, want %v", len(kernels), want)
	}
	for i, k := range kernels {
		k := k.(map[string]any)
		if k["name"] != want[i] || !(k["ms"].(float64) > 0) {
			t.Errorf("timing %d: %v", i, k)
		}
		if it, _ := k["iterations"].(float64); (i%2 == 1) != (it >= 1) {
			t.Errorf("%v: iterations %v", k["name"], k["iterations"])
		}
	}
}
