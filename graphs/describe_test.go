package graphs

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDescribe: the widths of the features read, and the line naming those left unread.
func TestDescribe(t *testing.T) {
	fsys := tuTinyFS(t)
	for _, tc := range []struct {
		features       FeatureKind
		labels, attrs  int
		want, wantNone string
	}{
		{FeaturesNone, 0, 0, "TINY also has node features (labels, attributes), not read here: add --features labels|attributes|both", "node features read"},
		{FeaturesLabels, 3, 0, "node features read: labels", "not read here"},
	} {
		ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: tc.features})
		if err != nil {
			t.Fatal(err)
		}
		used := ""
		if tc.features != FeaturesNone {
			used = tc.features.String()
		}
		d := Describe(ds, used)
		if d.Graphs != 3 || d.NodeLabels != tc.labels || d.NodeAttributes != tc.attrs {
			t.Errorf("%v: %d graphs, %d node labels, %d attributes; want 3, %d, %d", tc.features, d.Graphs, d.NodeLabels, d.NodeAttributes, tc.labels, tc.attrs)
		}
		var b strings.Builder
		if err := WriteDescriptions(&b, []Description{d}); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); !strings.Contains(out, tc.want) || strings.Contains(out, tc.wantNone) || !strings.HasPrefix(strings.TrimSpace(out), "name") {
			t.Errorf("%v: %q, want a line %q and none with %q", tc.features, out, tc.want, tc.wantNone)
		}
	}
}

// TestDescribeUnread: the TU files no option reads are named, and only those there.
func TestDescribeUnread(t *testing.T) {
	fsys := tuTinyFS(t)
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
	if err != nil || ds.Unread != nil {
		t.Fatalf("without edge files: unread %v (%v)", ds.Unread, err)
	}
	fsys["TINY/TINY_edge_labels.txt"] = &fstest.MapFile{Data: []byte("1\n")}
	fsys["TINY/TINY_graph_attributes.txt.gz"] = &fstest.MapFile{Data: tuGzip(t, []byte("0.5\n"))}
	if ds, err = ReadTU(fsys, "TINY", "TINY", TUOptions{}); err != nil || !slices.Equal(ds.Unread, []string{"edge labels", "graph attributes"}) {
		t.Fatalf("unread %v (%v), want edge labels and graph attributes", ds.Unread, err)
	}
	var b strings.Builder
	if err := WriteDescriptions(&b, []Description{Describe(ds, "")}); err != nil {
		t.Fatal(err)
	}
	if want := "TINY also has edge labels and graph attributes, which gwf does not read"; !strings.Contains(b.String(), want) {
		t.Errorf("%q, want %q", b.String(), want)
	}
	// Read, the edge labels are said to be read, and no longer unread.
	fsys["TINY/TINY_edge_labels.txt"] = &fstest.MapFile{Data: []byte(strings.Repeat("1\n", 12))}
	if ds, err = ReadTU(fsys, "TINY", "TINY", TUOptions{EdgeLabels: true}); err != nil || !slices.Equal(ds.Unread, []string{"graph attributes"}) {
		t.Fatalf("unread %v (%v), want graph attributes", ds.Unread, err)
	}
	b.Reset()
	if err := WriteDescriptions(&b, []Description{Describe(ds, "")}); err != nil {
		t.Fatal(err)
	}
	if want := "TINY has edge labels, which 'gwf classify' compares"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "also has edge labels") {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
