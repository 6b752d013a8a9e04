package plot

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is one curve with a ± band: Y[i] ± Err[i] at X[i].
type Series struct {
	Name   string
	X, Y   []float64
	Err    []float64   // nil for no band
	Colour color.Color // nil: a colour of a fixed palette of eight, by the series' index
}

// palette gives distinct colours for series and classes.
var palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255},
	color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255},
	color.RGBA{R: 148, G: 103, B: 189, A: 255},
	color.RGBA{R: 255, G: 127, B: 14, A: 255},
	color.RGBA{R: 140, G: 86, B: 75, A: 255},
	color.RGBA{R: 227, G: 119, B: 194, A: 255},
	color.RGBA{R: 127, G: 127, B: 127, A: 255},
}

// Lines draws the series (with translucent ± bands) and writes a 6×4 inch PNG.
func Lines(w io.Writer, title, xLabel, yLabel string, logY bool, series []Series) error {
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
		if len(s.X) != len(s.Y) || (s.Err != nil && len(s.Err) != len(s.X)) {
			return fmt.Errorf("plot: series %q has %d x, %d y and %d error values", s.Name, len(s.X), len(s.Y), len(s.Err))
		}
		c := s.Colour
		if c == nil {
			c = palette[i%len(palette)]
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
				return fmt.Errorf("plot: %w", err)
			}
			poly.Color = translucent(c, 60)
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(s.Name, line)
	}
	p.Legend.YOffs = -vg.Points(4)
	return writePNG(w, p, 6*vg.Inch, 4*vg.Inch)
}

// Scatter draws points coloured by class (class[i] indexes classNames) and writes a PNG.
func Scatter(w io.Writer, title string, x, y []float64, class []int, classNames []string) error {
	if len(y) != len(x) || len(class) != len(x) {
		return fmt.Errorf("plot: %d x, %d y and %d classes", len(x), len(y), len(class))
	}
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
			return fmt.Errorf("plot: %w", err)
		}
		s.GlyphStyle.Color = translucent(palette[c%len(palette)], 170)
		s.GlyphStyle.Radius = vg.Points(2)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(s)
		if name != "" {
			p.Legend.Add(name, s)
		}
	}
	// A margin, so that points on the edge are drawn whole.
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		d := 0.05 * (ax.Max - ax.Min)
		if d == 0 {
			d = 1
		}
		ax.Min, ax.Max = ax.Min-d, ax.Max+d
	}
	return writePNG(w, p, 6*vg.Inch, 4*vg.Inch)
}

// HeatMap draws a matrix (row 0 at the top) and writes a 3×3 inch PNG.
func HeatMap(w io.Writer, title string, m mat.Matrix) error {
	return writePNG(w, heatMap(title, m), 3*vg.Inch, 3*vg.Inch)
}

func heatMap(title string, m mat.Matrix) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.HideAxes()
	p.Add(plotter.NewHeatMap(matrixGrid{m}, moreland.SmoothBlueRed().Palette(64)))
	return p
}

// matrixGrid adapts a matrix to plotter.GridXYZ (row 0 at the top).
type matrixGrid struct{ m mat.Matrix }

func (g matrixGrid) Dims() (c, r int)   { r, c = g.m.Dims(); return c, r }
func (g matrixGrid) Z(c, r int) float64 { n, _ := g.m.Dims(); return g.m.At(n-1-r, c) }
func (g matrixGrid) X(c int) float64    { return float64(c) }
func (g matrixGrid) Y(r int) float64    { return float64(r) }

// translucent is c with alpha a (not premultiplied).
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// writePNG renders p at the given size as PNG.
func writePNG(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	wt, err := p.WriterTo(width, height, "png")
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// writeTiles renders plots side by side, cols per row, each tile×tile, as PNG.
func writeTiles(w io.Writer, plots []*plot.Plot, cols int, tile vg.Length) error {
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(plots) {
				grid[i][j] = plots[k]
			}
		}
	}
	img := vgimg.New(vg.Length(cols)*tile, vg.Length(rows)*tile)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter, PadY: vg.Millimeter}
	canvases := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}
