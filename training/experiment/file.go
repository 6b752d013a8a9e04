package experiment

import (
	"io"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

// writeFile writes path through internal/atomicfile: a regular file is replaced only once
// complete (a killed run leaves no partial file), a symbolic link is followed, a FIFO or device
// is written in place and a folder is refused.
func writeFile(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, write)
}
