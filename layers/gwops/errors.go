package gwops

import (
	"fmt"

	"github.com/gwf-graphs/gwf/layers"
)

// errorf builds an error wrapping layers.ErrInput.
func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", layers.ErrInput, fmt.Sprintf(format, args...))
}
