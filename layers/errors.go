package layers

import "fmt"

// errorf builds an ErrInput error.
func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}
