// Package cli is the command-line plumbing of cmd/gwf that knows nothing of graphs: usage and
// interrupt errors with their exit statuses, signal watching, argument checks, "did you mean"
// for mistyped flags, renamed flags, the resume command line, atomic outputs
// and the CPU profile. Commands report their own mistakes as UsageError (exit status 2) and
// work stopped by a signal as InterruptedError (130).
package cli
