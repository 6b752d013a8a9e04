package nbkit

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

	"github.com/gwf-graphs/gwf/internal/atomicfile"
)

// Output is where an experiment shows what it finds: a notebook shows it inline (Inline), a
// program writes it to a folder and a Markdown report (Folder).
type Output interface {
	// Markdown shows a paragraph of Markdown: a heading, prose.
	Markdown(format string, args ...any)
	// Table shows a table.
	Table(header []string, rows [][]string)
	// Figure shows the PNG that draw writes (a training/plot function), named name.
	Figure(name string, draw func(io.Writer) error) error
	// File keeps a data file (a CSV of the numbers shown) named name.
	File(name string, data []byte) error
	// Logf reports progress.
	Logf(format string, args ...any)
}

// markdownTable renders a Markdown table.
func markdownTable(header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|" + strings.Repeat("---|", len(header)) + "\n")
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}

// inline is the Output of Inline.
type inline struct {
	markdown func(string)
	png      func([]byte)
	log      io.Writer
}

// Inline is the Output of a notebook: markdown and png display Markdown and PNG bytes in the
// notebook (GoNB's gonbui.DisplayMarkdown and gonbui.DisplayPNG; nbkit does not import GoNB,
// so that the library's module does not depend on it), progress goes to standard output, and
// data files are not kept (the programs keep them).
func Inline(markdown func(string), png func([]byte)) Output {
	return inline{markdown: markdown, png: png, log: os.Stdout}
}

func (o inline) Markdown(format string, args ...any) { o.markdown(fmt.Sprintf(format, args...)) }

func (o inline) Table(header []string, rows [][]string) { o.markdown(markdownTable(header, rows)) }

func (o inline) Figure(name string, draw func(io.Writer) error) error {
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	o.png(b.Bytes())
	return nil
}

func (inline) File(string, []byte) error { return nil }

func (o inline) Logf(format string, args ...any) { fmt.Fprintf(o.log, format+"\n", args...) }

// Folder is the Output of a program: it writes figures and data files to a folder, atomically
// (a failed run leaves no partial file), and gathers the text, the tables and links to the
// figures into the folder's report.md, which Save writes.
type Folder struct {
	dir    string
	log    io.Writer
	report strings.Builder
}

// NewFolder creates the folder dir (if need be) for an experiment's outputs; its report starts
// with the title, the command that reproduces it and the machine. Progress goes to log.
func NewFolder(dir, title, command string, log io.Writer) (*Folder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	f := &Folder{dir: dir, log: log}
	fmt.Fprintf(&f.report, "# %s\n\nReproduce with:\n\n```sh\n%s\n```\n\nMachine: %s. Written %s.\n\n",
		title, command, Machine(), time.Now().UTC().Format(time.RFC3339))
	return f, nil
}

// Dir is the folder written.
func (f *Folder) Dir() string { return f.dir }

func (f *Folder) Markdown(format string, args ...any) {
	fmt.Fprintf(&f.report, format, args...)
	f.report.WriteString("\n\n")
}

func (f *Folder) Table(header []string, rows [][]string) {
	f.report.WriteString(markdownTable(header, rows) + "\n")
}

// Figure writes name (a .png file) and links it from the report.
func (f *Folder) Figure(name string, draw func(io.Writer) error) error {
	if err := atomicfile.Write(filepath.Join(f.dir, name), draw); err != nil {
		return err // it names the file
	}
	fmt.Fprintf(&f.report, "![%s](%s)\n\n", strings.TrimSuffix(name, filepath.Ext(name)), name)
	return nil
}

// File writes name; its error names the file.
func (f *Folder) File(name string, data []byte) error {
	return atomicfile.WriteFile(filepath.Join(f.dir, name), data)
}

func (f *Folder) Logf(format string, args ...any) { fmt.Fprintf(f.log, format+"\n", args...) }

// Save writes the report to report.md in the folder.
func (f *Folder) Save() error { return f.File("report.md", []byte(f.report.String())) }

// Machine describes the computer an experiment ran on.
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
