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
	def, err := ParseFeatures(DefaultFeatures)
	if err != nil {
		t.Fatal(err)
	}
	if fl := def.Flags("AIDS"); len(fl) != 3 || fl[1] != "attributes" || fl[2] != "--standardize" {
		t.Errorf("AIDS flags %v", fl)
	}
	if k, std := def.Kind("PROTEINS"); k != "attributes" || !std {
		t.Errorf("PROTEINS kind %q, %v", k, std)
	}
	if k, std := def.Kind("IMDB-BINARY"); k != "none" || std {
		t.Errorf("IMDB-BINARY kind %q, %v", k, std)
	}
}
