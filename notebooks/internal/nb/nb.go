// Package nb holds what the notebooks share: the machine description, Markdown reports and
// atomic file writes. Their pictures are drawn by the library package training/plot, which
// gwf plot uses too.
package nb

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

// Machine describes the computer a notebook ran on.
func Machine() string {
	cpu := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s), %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, runtime.Version())
}

// Report is a Markdown report being written.
type Report struct {
	b strings.Builder
}

// NewReport starts a report with a title, the command that reproduces it and the machine.
func NewReport(title, command string) *Report {
	r := &Report{}
	fmt.Fprintf(&r.b, "# %s\n\nReproduce with:\n\n```sh\n%s\n```\n\nMachine: %s. Written %s.\n\n",
		title, command, Machine(), time.Now().UTC().Format(time.RFC3339))
	return r
}

// Printf appends formatted text.
func (r *Report) Printf(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

// Table appends a Markdown table.
func (r *Report) Table(header []string, rows [][]string) {
	r.b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		r.b.WriteString("---|")
	}
	r.b.WriteString("\n")
	for _, row := range rows {
		r.b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	r.b.WriteString("\n")
}

// Save writes the report to dir/report.md.
func (r *Report) Save(dir string) error {
	return WriteFile(filepath.Join(dir, "report.md"), []byte(r.b.String()))
}

// WriteFile writes data to path through internal/atomicfile (a temporary file and a rename, so
// a failed run leaves no partial file; a symbolic link is followed, a device written in place).
func WriteFile(path string, data []byte) error {
	return atomicfile.WriteFile(path, data)
}

// SavePNG writes the picture draw makes (a training/plot function) to path, atomically.
func SavePNG(path string, draw func(w io.Writer) error) error {
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFile(path, b.Bytes())
}

// NewFlagSet returns a notebook's flag set: the flag library of gwf (pflag, GNU-style
// --flags), exiting with a usage message on a bad command line.
func NewFlagSet(name string) *pflag.FlagSet {
	return pflag.NewFlagSet(name, pflag.ExitOnError)
}

// OutputDir registers --output-dir, the folder a notebook writes (as gwf cluster's), and its
// old spelling --out, hidden and deprecated: it still works, with a warning.
func OutputDir(fs *pflag.FlagSet, p *string, def string) {
	fs.StringVar(p, "output-dir", def, "folder for the figures, the numbers and report.md")
	fs.StringVar(p, "out", def, "old spelling of --output-dir")
	fs.MarkDeprecated("out", "use --output-dir")
}
