//go:build !unix

package dirlock

// alive reports whether process pid of this host runs: without a portable check, every
// process counts as running, and a stale lock is removed by hand.
func alive(int) bool { return true }
