//go:build unix

package dirlock

import (
	"errors"
	"os"
	"syscall"
)

// alive reports whether process pid of this host runs (signal 0 checks without sending).
// This process's own pid counts as ended: a lock that names it was left by an earlier process
// with the same pid (containers restart their processes with the same small pids).
func alive(pid int) bool {
	if pid == os.Getpid() {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM) // EPERM: it runs, as another user
}
