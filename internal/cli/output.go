package cli

import (
	"encoding/json"
	"io"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

// WriteOutput calls write with stdout when path is "-" or empty, else writes the file through
// internal/atomicfile: a regular file is replaced only once complete (a failed run leaves no
// partial file), a symbolic link is followed, a FIFO or device is written in place and a
// folder is refused.
func WriteOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	return atomicfile.Write(path, write)
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
