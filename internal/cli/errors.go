package cli

import (
	"errors"
	"fmt"
)

// Exit statuses of the command.
const (
	ExitOK          = 0
	ExitError       = 1   // runtime errors: unreadable or invalid data, numerical failures, I/O
	ExitUsage       = 2   // usage errors: unknown command or flag, bad flag value, missing flag
	ExitInterrupted = 130 // work stopped by SIGINT or SIGTERM (128 + SIGINT)
)

// UsageError marks an error as the user's mistake on the command line (exit status 2).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// IsUsage reports whether err is or wraps a UsageError.
func IsUsage(err error) bool {
	var ue UsageError
	return errors.As(err, &ue)
}

// InterruptedError reports work stopped by a signal (exit status 130); its message says what
// was kept and how to go on.
type InterruptedError struct{ Msg string }

func (e InterruptedError) Error() string { return e.Msg }

// IsInterrupted reports whether err is or wraps an InterruptedError.
func IsInterrupted(err error) bool {
	var ie InterruptedError
	return errors.As(err, &ie)
}

// Usage marks err as a usage error (nil stays nil).
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return UsageError{err}
}

// Interrupted is an InterruptedError of message msg.
func Interrupted(msg string) error { return InterruptedError{msg} }
