package graphs

import (
	"fmt"
	"math"
)

// checkDenseSize refuses, before anything is allocated, a graph of n nodes and d features that
// exceeds lim's node count, or whose dense matrices (as a reader or a solver's worker holds them)
// exceed its memory. label names the source in the message.
func checkDenseSize(label string, n, d int, lim Limits) error {
	lim = lim.OrDefault()
	if err := lim.checkNodes(label, n); err != nil {
		return err
	}
	// denseBytes would overflow for absurd n (possible only with a raised MaxNodes).
	if n > 0 && int64(n)+int64(d) > math.MaxInt64/8/int64(n) {
		return fmt.Errorf("%s: a graph of %d nodes and %d features is too large to hold in memory", label, n, d)
	}
	if b := denseBytes(n, d); b > lim.MaxDenseBytes {
		return fmt.Errorf("%s: a graph of %d nodes and %d features needs %d bytes of dense matrices, over the limit of %d (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			label, n, d, b, lim.MaxDenseBytes)
	}
	return nil
}

// invalidf is a structural error of the graph read from label; it wraps ErrInvalid like
// Validate's errors do.
func invalidf(label, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", label, ErrInvalid, fmt.Sprintf(format, args...))
}
