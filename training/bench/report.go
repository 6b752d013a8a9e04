package bench

import (
	"fmt"
	"io"
	"runtime"
	"syscall"
	"text/tabwriter"

	"github.com/gwf-graphs/gwf/internal/simd"
	"github.com/gwf-graphs/gwf/layers"
)

// Report is what 'gwf bench' prints.
type Report struct {
	Machine     string   `json:"machine"`
	CPUs        int      `json:"cpus"`
	Kernels     string   `json:"kernels"`
	GEMMGflops  float64  `json:"gemm_gflops"`
	GonumGflops float64  `json:"gonum_gemm_gflops"`
	Timings     []Kernel `json:"kernel_timings"`
	Epochs      []Epoch  `json:"epochs,omitempty"`
	PeakRSSMiB  float64  `json:"peak_rss_mib"`
	GoVersion   string   `json:"go_version"`
	Description string   `json:"settings"`
}

// NewReport is an empty report of this machine, with its settings described as description.
func NewReport(description string) Report {
	return Report{
		Machine: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(), Kernels: simd.Kernels(),
		GoVersion: runtime.Version(), Description: description,
	}
}

// Kernel is one kernel's timing.
type Kernel struct {
	Name        string  `json:"name"`
	Millis      float64 `json:"ms"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// MFlop is the floating-point work, Gflops its rate and AtGEMMRate the time it would take
	// at the measured GEMM rate (GWD only).
	MFlop float64 `json:"mflop,omitempty"`
	// Iterations is CG's mean number of iterations per solve (Curve only).
	Iterations float64 `json:"iterations,omitempty"`
	Gflops     float64 `json:"gflops,omitempty"`
	AtGEMMRate float64 `json:"ms_at_gemm_rate,omitempty"`
}

// Epoch is one training epoch's timing on a dataset.
type Epoch struct {
	Dataset         string            `json:"dataset"`
	Solver          layers.SolverName `json:"solver"`
	Tol             float64           `json:"tol,omitempty"`
	Features        string            `json:"features"`
	Graphs          int               `json:"graphs"`
	Timed           int               `json:"timed_graphs"`
	GraphsPerSec    float64           `json:"graphs_per_sec"`
	SecondsPerEpoch float64           `json:"seconds_per_epoch"`
	PeakRSSMiB      float64           `json:"peak_rss_mib"`
}

// PeakRSSMiB is the process's peak resident set size so far (0 where the system does not say;
// Linux reports it in KiB).
func PeakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

// WriteTable writes the report as aligned text tables.
func (rep *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "machine: %s, %d CPUs, kernels %s, %s\n", rep.Machine, rep.CPUs, rep.Kernels, rep.GoVersion)
	fmt.Fprintf(w, "settings: %s\n", rep.Description)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if len(rep.Timings) > 0 {
		if rep.GEMMGflops > 0 {
			fmt.Fprintf(w, "GEMM: %.2f GFLOP/s per core (gonum's Dgemm: %.2f)\n", rep.GEMMGflops, rep.GonumGflops)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "kernel\tms\tallocs/op\tMFLOP\tGFLOP/s\tms at GEMM rate\t")
		for _, k := range rep.Timings {
			switch {
			case k.Iterations > 0:
				fmt.Fprintf(tw, "%s (%.0f iterations)\t%.3f\t%.1f\t\t\t\t\n", k.Name, k.Iterations, k.Millis, k.AllocsPerOp)
			case k.MFlop > 0:
				fmt.Fprintf(tw, "%s\t%.3f\t%.1f\t%.1f\t%.2f\t%.3f\t\n", k.Name, k.Millis, k.AllocsPerOp, k.MFlop, k.Gflops, k.AtGEMMRate)
			default:
				fmt.Fprintf(tw, "%s\t%.3f\t%.1f\t\t\t\t\n", k.Name, k.Millis, k.AllocsPerOp)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Epochs) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "dataset\tsolver\tfeatures\tgraphs\ttimed\tgraphs/s\ts/epoch\tpeak RSS MiB\t")
		for _, e := range rep.Epochs {
			solver := string(e.Solver)
			if e.Tol > 0 {
				solver += fmt.Sprintf(" tol %g", e.Tol)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%.0f\t\n", e.Dataset, solver, e.Features, e.Graphs, e.Timed, e.GraphsPerSec, e.SecondsPerEpoch, e.PeakRSSMiB)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\npeak RSS: %.0f MiB\n", rep.PeakRSSMiB)
	return err
}
