package semisup

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// cycle is the cycle graph of n nodes, uniform node weights.
func cycle(t *testing.T, n int) *graphs.Graph {
	t.Helper()
	c := mat.NewDense(n, n, nil)
	for a := 0; a < n; a++ {
		b := (a + 1) % n
		c.Set(a, b, 1)
		c.Set(b, a, 1)
	}
	g, err := graphs.New("cycle", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TemplateNodes 0 bounds the templates by the median size of the labelled graphs (the
// unlabelled ones do not count), and the model keeps that number, in its file too.
func TestTemplateNodesMedian(t *testing.T) {
	sizes := []int{5, 9, 7, 11, 6, 30, 40}
	labels := []int{0, 1, 0, 1, 0, Unlabeled, Unlabeled}
	data := make([]*graphs.Graph, len(sizes))
	for i, n := range sizes {
		data[i] = cycle(t, n)
	}
	if got := MedianNodes(data, []int{0, 1, 2, 3, 4}); got != 7 {
		t.Errorf("median of 5 9 7 11 6: %d, want 7", got)
	}
	if got := MedianNodes(data, []int{0, 1, 2, 3}); got != 9 {
		t.Errorf("median of 5 9 7 11: %d, want 9 (the upper middle)", got)
	}
	if got := MedianNodes(data, nil); got != 1 {
		t.Errorf("median of none: %d, want 1", got)
	}
	cfg := smallTemplateConfig()
	cfg.TemplateNodes = 0
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.TemplateNodes != 7 {
		t.Fatalf("TemplateNodes %d, want the labelled graphs' median 7", m.Config.TemplateNodes)
	}
	largest := 0
	for k, tg := range m.Templates {
		n, _ := tg.V.Dims()
		if n > 7 {
			t.Errorf("template %d has %d nodes, over the median 7", k, n)
		}
		largest = max(largest, n)
	}
	if largest != 7 {
		t.Errorf("largest template %d nodes: a piece of a graph of 7 or more nodes should reach 7", largest)
	}
	if back := reloaded(t, m, data); back.Config.TemplateNodes != 7 {
		t.Errorf("the loaded model's TemplateNodes %d, want 7", back.Config.TemplateNodes)
	}
}

// TemplateSizes bounds consecutive groups of the templates in turn, a size 0 by the median of
// the labelled graphs, and the model keeps the sizes it resolved, in its file too; one size
// alone, a negative one, or more sizes than templates are refused.
func TestTemplateSizesGroups(t *testing.T) {
	sizes := []int{16, 16, 20, 16, 16, 18}
	labels := []int{0, 1, 0, 1, 0, 1}
	data := make([]*graphs.Graph, len(sizes))
	for i, n := range sizes {
		data[i] = cycle(t, n)
	}
	cfg := smallTemplateConfig()
	cfg.Templates, cfg.TemplateSizes = 6, []int{3, 0}
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 16}; !slices.Equal(m.Config.TemplateSizes, want) {
		t.Fatalf("TemplateSizes %v, want %v (the median 16 in place of 0)", m.Config.TemplateSizes, want)
	}
	for k, tg := range m.Templates {
		want := 3 // every graph is a cycle of 16 or more nodes: a piece reaches its bound
		if k >= 3 {
			want = 16
		}
		if n, _ := tg.V.Dims(); n != want {
			t.Errorf("template %d has %d nodes, want %d", k, n, want)
		}
	}
	if back := reloaded(t, m, data); !slices.Equal(back.Config.TemplateSizes, m.Config.TemplateSizes) {
		t.Errorf("the loaded model's TemplateSizes %v, want %v", back.Config.TemplateSizes, m.Config.TemplateSizes)
	}
	for _, bad := range [][]int{{5}, {-1, 3}, {3, 4, 5, 6, 7, 8, 9}} {
		c := cfg
		c.TemplateSizes = bad
		if _, err := NewTemplateModel(data, labels, 2, c); err == nil {
			t.Errorf("TemplateSizes %v accepted", bad)
		}
	}
	c := cfg
	c.Templates, c.TemplateSizes = 0, []int{3, 4, 5, 6, 7, 8, 9, 10, 11} // 8 templates for 2 classes
	if _, err := NewTemplateModel(data, labels, 2, c); err == nil || !strings.Contains(err.Error(), "9 template sizes for 8 templates") {
		t.Errorf("9 sizes for 8 templates: %v", err)
	}
}
