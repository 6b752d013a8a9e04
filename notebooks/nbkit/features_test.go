package nbkit

import (
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
)

func TestParseFeatures(t *testing.T) {
	got, err := ParseFeatures("AIDS=attributes, MUTAG=labels,")
	if err != nil || got.Of("AIDS") != "attributes" || got.Of("MUTAG") != "labels" || got.Of("IMDB-BINARY") != "none" || len(got) != 2 {
		t.Errorf("got %v, %v", got, err)
	}
	if s := got.String(); s != "AIDS=attributes,MUTAG=labels" {
		t.Errorf("String %q", s)
	}
	if n := got.CellName("AIDS", "ppa"); n != "AIDS-ppa-attributes" {
		t.Errorf("cell name %q", n)
	}
	if n := got.CellName("IMDB-BINARY", "badmm"); n != "IMDB-BINARY-badmm" {
		t.Errorf("cell name %q", n)
	}
	if d := got.Describe([]string{"AIDS", "IMDB-BINARY"}); d != "AIDS=attributes,IMDB-BINARY=none" {
		t.Errorf("describe %q", d)
	}
	for _, bad := range []string{"AIDS", "AIDS=rgb"} {
		if _, err := ParseFeatures(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	std, err := ParseFeatures("PROTEINS_full=attributes-std")
	if err != nil {
		t.Fatal(err)
	}
	if fl := strings.Join(std.Flags("PROTEINS_full"), " "); fl != "--features attributes --standardize" {
		t.Errorf("PROTEINS_full flags %q", fl)
	}
}

// TestPaperFeatures: the programs' default --features is the library's choice, which reads
// back as itself.
func TestPaperFeatures(t *testing.T) {
	def := PaperFeatures()
	if s := def.String(); s != "AIDS=attributes-bal,PROTEINS=attributes-bal,PROTEINS_full=attributes-bal" {
		t.Errorf("paper features %q", s)
	}
	for _, d := range datasets.Names() {
		want, err := datasets.PaperFeatures(d)
		if err != nil || def.Prep(d) != want {
			t.Errorf("%s: %+v, want %+v (%v)", d, def.Prep(d), want, err)
		}
	}
	back, err := ParseFeatures(def.String())
	if err != nil || back.String() != def.String() {
		t.Errorf("read back %v (%v)", back, err)
	}
	if fl := strings.Join(def.Flags("AIDS"), " "); fl != "--features attributes --standardize --feature-weight auto" {
		t.Errorf("AIDS flags %q", fl)
	}
	if p := def.Prep("IMDB-BINARY"); p != (datasets.Features{Kind: graphs.FeaturesNone}) {
		t.Errorf("IMDB-BINARY: %+v", p)
	}
}

// Load prepares the features as asked and returns the balanced weight only for attributes-bal.
func TestLoad(t *testing.T) {
	f, err := ParseFeatures("AIDS=attributes-std,PROTEINS=attributes-bal")
	if err != nil {
		t.Fatal(err)
	}
	ds, w, err := f.Load("AIDS", 50)
	if err != nil || len(ds.Graphs) != 50 || ds.Graphs[0].Dim() != 4 || w != 1 {
		t.Fatalf("AIDS: %v graphs, weight %v, %v", ds, w, err)
	}
	ds, w, err = f.Load("PROTEINS", 40)
	if err != nil {
		t.Fatal(err)
	}
	want, err := training.BalanceFeatures(graphs.Slice(ds.Graphs))
	if err != nil || w != want.Weight || w == 1 {
		t.Errorf("PROTEINS: weight %v, want the balanced %v (%v)", w, want.Weight, err)
	}
	if _, _, err := f.Load("NOSUCH", 0); err == nil {
		t.Error("unknown dataset: no error")
	}
}
