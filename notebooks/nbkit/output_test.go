package nbkit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is an Inline output that records what a notebook would display.
type recorder struct {
	markdown []string
	pngs     int
}

func (r *recorder) output() Output {
	o := Inline(func(md string) { r.markdown = append(r.markdown, md) }, func(png []byte) {
		if bytes.HasPrefix(png, []byte("\x89PNG")) {
			r.pngs++
		}
	})
	in := o.(inline)
	in.log = io.Discard
	return in
}

// TestInline: a notebook is shown the text, the tables and the figures, and keeps no file.
func TestInline(t *testing.T) {
	var r recorder
	out := r.output()
	out.Markdown("## %s", "a heading")
	out.Table([]string{"a", "b"}, [][]string{{"1", "2"}})
	if err := out.Figure("x.png", func(w io.Writer) error { _, err := w.Write([]byte("\x89PNG...")); return err }); err != nil {
		t.Fatal(err)
	}
	if err := out.Figure("y.png", func(io.Writer) error { return errors.New("no picture") }); err == nil || !strings.Contains(err.Error(), "y.png") {
		t.Errorf("a failed figure: %v", err)
	}
	if err := out.File("x.csv", []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"## a heading", "| a | b |\n|---|---|\n| 1 | 2 |\n"}; strings.Join(r.markdown, "/") != strings.Join(want, "/") || r.pngs != 1 {
		t.Errorf("shown %q and %d PNGs", r.markdown, r.pngs)
	}
	if _, err := os.Stat("x.csv"); err == nil {
		t.Error("Inline kept a file")
	}
}

// TestFolder: a program's folder holds the figures, the files and a report that links them,
// with the command and the machine; a failed figure leaves no file.
func TestFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	f, err := NewFolder(dir, "A title", "go run ./x --flag", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	f.Markdown("Some %s.", "prose")
	f.Table([]string{"a"}, [][]string{{"1"}})
	if err := f.Figure("pic.png", func(w io.Writer) error { _, err := w.Write([]byte("png")); return err }); err != nil {
		t.Fatal(err)
	}
	if err := f.Figure("bad.png", func(io.Writer) error { return errors.New("no picture") }); err == nil {
		t.Error("a failed figure: no error")
	}
	if err := f.File("n.csv", []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# A title\n", "go run ./x --flag", "Machine: ", "Some prose.\n\n| a |\n|---|\n| 1 |\n\n![pic](pic.png)"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.png")); err == nil {
		t.Error("a failed figure left a file")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "n.csv")); err != nil || string(b) != "a\n" {
		t.Errorf("n.csv: %q, %v", b, err)
	}
}

// TestFig3Inline: an experiment shown in a notebook displays its figures and tables; wrong
// sizes are refused before any work.
func TestFig3Inline(t *testing.T) {
	var r recorder
	if err := Fig3(context.Background(), Fig3Config{Pairs: 2, Nodes: 10, Edges: 2, Layers: 4, Seed: 1}, r.output()); err != nil {
		t.Fatal(err)
	}
	shown := strings.Join(r.markdown, "\n")
	if r.pngs != 2 || !strings.Contains(shown, "## directed graphs") || !strings.Contains(shown, "| BADMM |") {
		t.Errorf("%d PNGs, shown:\n%s", r.pngs, shown)
	}
	if err := Fig3(context.Background(), Fig3Config{Pairs: 2, Nodes: 2, Edges: 2, Layers: 4}, r.output()); err == nil {
		t.Error("2 nodes, m = 2: no error")
	}
}

// TestTable2Variants: the variants' names, and the detach rule of each embedding.
func TestTable2Variants(t *testing.T) {
	c := Table2Paper()
	for _, tc := range []struct {
		variant     string
		detachGiven bool
		detach      bool
		want        bool
	}{
		{"none", false, false, true}, {"gin", false, true, false}, {"gcn-alone", false, true, false},
		{"none", true, false, false}, {"gin", true, true, true},
	} {
		c.DetachGiven, c.Head.Detach = tc.detachGiven, tc.detach
		sc, err := c.withVariant(tc.variant)
		if err != nil || sc.Detach != tc.want || variantName(sc) != tc.variant {
			t.Errorf("%s (detach %v given %v): %v, %q, %v; want %v", tc.variant, tc.detach, tc.detachGiven, sc.Detach, variantName(sc), err, tc.want)
		}
	}
	if _, err := c.withVariant("gat"); err == nil {
		t.Error("gat: no error")
	}
}
