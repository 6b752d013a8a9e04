// Package nb holds what the notebooks share: the machine description, Markdown reports and
// mean ± std line plots.
package nb

import (
	"bufio"
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

// WriteFile writes data to path through a temporary file and a rename, so a failed run leaves
// no partial file.
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Series is one curve with a ± band: Y[i] ± Err[i] at X[i].
type Series struct {
	Name   string
	X, Y   []float64
	Err    []float64 // nil for no band
	Colour color.Color
}

// Palette gives distinct colours for series.
var Palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255},
	color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255},
	color.RGBA{R: 148, G: 103, B: 189, A: 255},
}

// LinePlot draws the series (with translucent ± bands) and saves a PNG.
func LinePlot(path, title, xLabel, yLabel string, logY bool, series []Series) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = true
	for i, s := range series {
		c := s.Colour
		if c == nil {
			c = Palette[i%len(Palette)]
		}
		if s.Err != nil {
			var band plotter.XYs
			for j := range s.X {
				lo := s.Y[j] - s.Err[j]
				if logY && lo <= 0 {
					lo = s.Y[j] / 10
				}
				band = append(band, plotter.XY{X: s.X[j], Y: lo})
			}
			for j := len(s.X) - 1; j >= 0; j-- {
				band = append(band, plotter.XY{X: s.X[j], Y: s.Y[j] + s.Err[j]})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return fmt.Errorf("plot %s: %w", path, err)
			}
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60} // not premultiplied
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(s.Name, line)
	}
	p.Legend.YOffs = -vg.Points(4)
	return savePNG(p, path)
}

// savePNG renders p to a PNG file (atomically).
func savePNG(p *plot.Plot, path string) error {
	w, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	if err := WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return nil
}

// ScatterPlot draws points coloured by class and saves a PNG.
func ScatterPlot(path, title string, x, y []float64, class []int, classNames []string) error {
	p := plot.New()
	p.Title.Text = title
	p.HideAxes()
	p.Legend.Top = true
	for c, name := range classNames {
		var pts plotter.XYs
		for i := range x {
			if class[i] == c {
				pts = append(pts, plotter.XY{X: x[i], Y: y[i]})
			}
		}
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		col := Palette[c%len(Palette)]
		r, g, b, _ := col.RGBA()
		s.GlyphStyle.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 170}
		s.GlyphStyle.Radius = vg.Points(2)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(s)
		p.Legend.Add(name, s)
	}
	return savePNG(p, path)
}

// matrixGrid adapts a matrix to plotter.GridXYZ (row 0 at the top).
type matrixGrid struct{ m mat.Matrix }

func (g matrixGrid) Dims() (c, r int)   { r, c = g.m.Dims(); return c, r }
func (g matrixGrid) Z(c, r int) float64 { n, _ := g.m.Dims(); return g.m.At(n-1-r, c) }
func (g matrixGrid) X(c int) float64    { return float64(c) }
func (g matrixGrid) Y(r int) float64    { return float64(r) }

// HeatMap draws a matrix (row 0 at the top) and saves a PNG.
func HeatMap(path, title string, m mat.Matrix) error {
	p := plot.New()
	p.Title.Text = title
	p.HideAxes()
	h := plotter.NewHeatMap(matrixGrid{m}, moreland.SmoothBlueRed().Palette(64))
	p.Add(h)
	w, err := p.WriterTo(3*vg.Inch, 3*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return WriteFile(path, b.Bytes())
}
