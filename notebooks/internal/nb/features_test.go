package nb

import "testing"

func TestParseFeatures(t *testing.T) {
	got, err := ParseFeatures("AIDS=attributes, MUTAG=labels,")
	if err != nil || got.Of("AIDS") != "attributes" || got.Of("MUTAG") != "labels" || got.Of("IMDB-BINARY") != "none" || len(got) != 2 {
		t.Errorf("got %v, %v", got, err)
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
	if _, err := ParseFeatures(PaperFeatures); err != nil {
		t.Error(err)
	}
}
