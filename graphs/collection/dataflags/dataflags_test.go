package dataflags

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
)

func parse(t *testing.T, args ...string) (*Flags, error) {
	t.Helper()
	var f Flags
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f, f.Check()
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"--dataset", "mutag"}, ""},
		{[]string{"--tu", "x.zip"}, ""},
		{nil, "give the data"},
		{[]string{"--dataset", "MUTAG", "--graphs", "d"}, "only one"},
		{[]string{"--dataset", "nope"}, "unknown dataset"},
		{[]string{"--dataset", "MUTAG", "--max-nodes", "0"}, "--max-nodes"},
		{[]string{"--dataset", "MUTAG", "--max-memory", "-1"}, "--max-memory"},
		{[]string{"--dataset", "MUTAG", "--subset", "-2"}, "--subset"},
		{[]string{"--dataset", "MUTAG", "--features", "colour"}, "--features"},
	} {
		_, err := parse(t, c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

func TestLoadAndString(t *testing.T) {
	f, err := parse(t, "--dataset", "MUTAG", "--subset", "10")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 10 {
		t.Errorf("%d graphs, want the subset's 10", len(ds.Graphs))
	}
	if s := f.String(); s != "--dataset MUTAG --subset 10 --subset-seed 1" {
		t.Errorf("String() = %q", s)
	}
	if !f.Given() {
		t.Error("Given() is false with --dataset")
	}
}

// TestUseEncoding: a model's encoding fills in --features and --standardize, passes its
// one-hot values and statistics to the spec, and refuses flags that contradict it.
func TestUseEncoding(t *testing.T) {
	labels := &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabels: []int{0, 4}}
	std := &graphs.FeatureEncoding{Kind: graphs.FeaturesAttributes, Mean: []float64{1}, Scale: []float64{2}}
	sp := &graphs.FeatureEncoding{Structure: graphs.ShortestPath}
	names := &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabelNames: []string{"element=C"}}
	for _, c := range []struct {
		args    []string
		enc     *graphs.FeatureEncoding
		changed bool
		err     string
		want    string // the features read, then "+std" when standardized, "+sp" with shortest paths
	}{
		{[]string{"--dataset", "MUTAG"}, nil, false, "", "none"},
		{[]string{"--dataset", "MUTAG"}, labels, true, "", "labels"},
		{[]string{"--dataset", "MUTAG", "--features", "labels"}, labels, false, "", "labels"},
		{[]string{"--dataset", "PROTEINS"}, std, true, "", "attributes+std"},
		{[]string{"--dataset", "PROTEINS", "--features", "attributes", "--standardize"}, std, false, "", "attributes+std"},
		{[]string{"--dataset", "MUTAG", "--features", "attributes"}, labels, false, "trained with --features labels", ""},
		{[]string{"--dataset", "MUTAG", "--standardize"}, labels, false, "not standardized", ""},
		{[]string{"--graphs", "x"}, labels, false, "does not have", ""},
		{[]string{"--graphs", "x"}, names, true, "", "labels"},
		{[]string{"--dataset", "MUTAG"}, names, false, "TU data do not have", ""},
		{[]string{"--dataset", "MUTAG"}, sp, true, "", "none+sp"},
		{[]string{"--dataset", "MUTAG", "--structure", "sp"}, sp, false, "", "none+sp"},
		{[]string{"--dataset", "MUTAG", "--structure", "sp"}, labels, false, "trained with --structure adjacency", ""},
	} {
		f, err := parse(t, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		changed, err := f.UseEncoding(c.enc)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		spec := f.Spec()
		got := spec.Features.String()
		if spec.Standardize {
			got += "+std"
		}
		if spec.Structure == graphs.ShortestPath {
			got += "+sp"
		}
		if err != nil || changed != c.changed || got != c.want || spec.Encoding != c.enc {
			t.Errorf("%v: changed %v, reads %s, encoding %v (%v); want %v, %s", c.args, changed, got, spec.Encoding, err, c.changed, c.want)
		}
	}
}

// TestLoadAutoFeatures: without --features the data's own features are read (attributes,
// else node labels, else none); with it, what it says.
func TestLoadAutoFeatures(t *testing.T) {
	named := t.TempDir()
	doc := `{"nodes": [{"id": 0, "element": "C"}, {"id": 1, "element": "N"}], "links": [{"source": 0, "target": 1}]}`
	if err := os.WriteFile(filepath.Join(named, "a.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "a.txt"), []byte("x y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		used string
		dim  int
	}{
		{[]string{"--dataset", "MUTAG", "--subset", "5"}, "labels", 7},
		{[]string{"--dataset", "PROTEINS", "--subset", "5"}, "both standardized", 4},
		{[]string{"--dataset", "PROTEINS", "--subset", "5", "--features", "attributes"}, "attributes", 1},
		{[]string{"--dataset", "PROTEINS", "--subset", "5", "--features", "none"}, "none", 0},
		{[]string{"--dataset", "PROTEINS", "--subset", "5", "--standardize"}, "both standardized", 4},
		{[]string{"--graphs", named}, "labels", 2},
		{[]string{"--graphs", plain}, "none", 0},
	} {
		var f Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := f.Check(); err != nil {
			t.Fatal(err)
		}
		ds, err := f.LoadAutoFeatures()
		if used := readAs(ds); err != nil || used != c.used || ds.Graphs[0].Dim() != c.dim {
			t.Errorf("%v: %q, width %v (%v); want %q, %d", c.args, used, dimOf(ds), err, c.used, c.dim)
		}
	}
	// Attributes on some graphs only are not read around (the node labels alone, silently):
	// the error names a graph without them and one with, whichever comes first.
	for _, first := range []string{"a.json", "b.json"} {
		dir := t.TempDir()
		for _, name := range []string{"a.json", "b.json"} {
			body := doc
			if name == first {
				body = strings.Replace(doc, `"element": "C"`, `"element": "C", "mass": 12`, 1)
				body = strings.Replace(body, `"element": "N"`, `"element": "N", "mass": 14`, 1)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var f Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse([]string{"--graphs", dir}); err != nil {
			t.Fatal(err)
		}
		if ds, err := f.LoadAutoFeatures(); err == nil || !strings.Contains(err.Error(), "while "+first+" has 1") {
			t.Errorf("attributes on %s alone: read with %q, error %v", first, readAs(ds), err)
		}
	}
}

// TestLoadAutoFeaturesPartialAttributes: a node without an attribute the others have (an
// isolated node added to networkx SBM graphs, which carry "block" on each node) no longer
// stops the defaults: the attribute is left out and Dataset.LeftOut says so, naming the node
// by its id, whether other attributes are left or not. --features attributes refuses the
// folder, naming the node by its id (999), not its position.
func TestLoadAutoFeaturesPartialAttributes(t *testing.T) {
	sbm := func(extra string) map[string]string {
		g := `{"graph": {"label": %d}, "nodes": [{"id": 0, "block": 0%s}, {"id": 1, "block": 1%s}%s], "links": [{"source": 0, "target": 1}]}`
		return map[string]string{
			"a.json": fmt.Sprintf(g, 0, extra, extra, ""),
			"b.json": fmt.Sprintf(g, 1, extra, extra, `, {"id": 999`+extra+`}`),
		}
	}
	for _, c := range []struct {
		files map[string]string
		used  string
		dim   int
	}{
		{sbm(""), "none", 0},
		{sbm(`, "x": 2.5`), "attributes standardized", 1},
	} {
		dir := t.TempDir()
		for name, body := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var f Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse([]string{"--graphs", dir}); err != nil {
			t.Fatal(err)
		}
		ds, err := f.LoadAutoFeatures()
		if used := readAs(ds); err != nil || used != c.used || dimOf(ds) != c.dim || len(ds.LeftOut) != 1 ||
			!strings.Contains(ds.LeftOut[0], `"block" left out of the node features: node 999 of b.json lacks it, node 0 has it`) {
			t.Errorf("%s: read with %q, width %d, left out %q, error %v; want %q, %d", c.used, used, dimOf(ds), leftOutOf(ds), err, c.used, c.dim)
		}
		f = Flags{}
		fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse([]string{"--graphs", dir, "--features", "attributes"}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.LoadAutoFeatures(); err == nil || !strings.Contains(err.Error(), `node 999 lacks the numeric attribute "block" that node 0 has`) {
			t.Errorf("%s, --features attributes: %v", c.used, err)
		}
	}
}

// readAs is the kind of node features ds was read with, and "standardized" if they were.
func readAs(ds *graphs.Dataset) string {
	if ds == nil {
		return ""
	}
	s := ds.Encoding.Kind.String()
	if ds.Encoding.Standardized() {
		s += " standardized"
	}
	return s
}

func leftOutOf(ds *graphs.Dataset) []string {
	if ds == nil {
		return nil
	}
	return ds.LeftOut
}

func dimOf(ds *graphs.Dataset) int {
	if ds == nil || len(ds.Graphs) == 0 {
		return -1
	}
	return ds.Graphs[0].Dim()
}

// TestLimitFlags: the limits alone (as 'gwf gw' registers them) default to graphs.DefaultLimits,
// refuse bounds that allow nothing or overflow, and round a tiny --max-memory up to a byte.
func TestLimitFlags(t *testing.T) {
	var l LimitFlags
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	l.Register(fs, "refuse more GiB than this")
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(); err != nil || l.Limits() != graphs.DefaultLimits() {
		t.Errorf("defaults: %v, limits %+v; want graphs.DefaultLimits() %+v", err, l.Limits(), graphs.DefaultLimits())
	}
	for _, bad := range []LimitFlags{{MaxNodes: 0, MaxMemory: 1}, {MaxNodes: 1, MaxMemory: 0}, {MaxNodes: 1, MaxMemory: 1 << 21}} {
		if err := bad.Check(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if tiny := (LimitFlags{MaxNodes: 1, MaxMemory: 1e-12}); tiny.Check() != nil || tiny.Limits().MaxDenseBytes != 1 {
		t.Errorf("--max-memory 1e-12: %+v, want a limit of one byte", tiny.Limits())
	}
}
