// Package cli is the command-line plumbing of cmd/gwf that knows nothing of graphs: the App a
// command tree shares (logger, --log-level/--quiet/--cpuprofile, the signal watch of
// Interruptible commands, Execute with its exit statuses and its safety net for panics), usage
// and interrupt errors, argument checks, "did you mean" for mistyped flags, renamed flags, the
// resume command line and atomic outputs. Commands report their own mistakes as UsageError
// (exit status 2) and work stopped by a signal as InterruptedError (130).
package cli
