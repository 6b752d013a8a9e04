// Package dirlock keeps two runs from computing into one output folder at once.
//
// Acquire creates a lock file, Name, in the folder, exclusively (O_EXCL): it names the process
// that holds it, its pid and host. A second run finds it and gets an error naming the file
// and that process. Release removes it when the run ends, however it ends short of a kill.
//
// A lock left by a run that was killed (SIGKILL, a crash, a machine that went down) names a
// process that no longer exists: when that process was on this host, Acquire takes the lock
// over with a warning. A lock of another host is never taken over, since whether its process
// still runs cannot be known from here; the error says to remove the file once that run is
// gone.
package dirlock
