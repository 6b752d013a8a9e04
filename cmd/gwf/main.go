// Command gwf computes Gromov-Wasserstein discrepancies between graphs and learns
// Gromov-Wasserstein factorization (GWF) models of graph datasets: fitting, embedding and
// clustering (Xu, "Gromov-Wasserstein Factorization Models for Graph Clustering", AAAI 2020).
//
// Run "gwf --help" for the commands and "gwf COMMAND --help" for their flags and examples.
//
// Exit status: 0 on success, 1 on runtime errors, 2 on usage errors (unknown commands or
// flags, bad flag values), 130 when training was interrupted by SIGINT or SIGTERM.
package main

import (
	"context"
	"io"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status. Tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root, a := newRootCmd()
	return execute(ctx, root, a, args, stdout, stderr)
}
