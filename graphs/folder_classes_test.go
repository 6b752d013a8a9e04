package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadFolderClassFolders: a folder of class subfolders gives each graph its folder's class
// (text classes, or TU-style integers), names graphs by their path, and Select and nodes.csv
// see those paths; labels.csv beside them, an unknown file in one, or no graph anywhere are
// errors.
func TestReadFolderClassFolders(t *testing.T) {
	const tri = `{"adjacency": [[0,1,1],[1,0,1],[1,1,0]]}`
	const path = "0 1\n1 2\n"
	dir := writeFiles(t, map[string]string{
		"ring/a.json": tri, "ring/b.json": tri, "star/c.txt": path, "star/README.md": "notes",
		"star/deeper/x.json": tri, ".git/config": "x",
	})
	ds, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var labels []int
	for _, g := range ds.Graphs {
		names, labels = append(names, g.Name), append(labels, g.Label)
	}
	if !slices.Equal(names, []string{"ring/a.json", "ring/b.json", "star/c.txt"}) || !slices.Equal(labels, []int{0, 0, 1}) ||
		!slices.Equal(ds.ClassNames, []string{"ring", "star"}) {
		t.Fatalf("graphs %v, labels %v, classes %v", names, labels, ds.ClassNames)
	}
	ds, err = ReadFolder(dir, FolderOptions{Select: func(n int) []int { return []int{n - 1} }})
	if err != nil || len(ds.Graphs) != 1 || ds.Graphs[0].Name != "star/c.txt" || ds.ClassName(ds.Graphs[0]) != "star" {
		t.Fatalf("selected: %v, %v", ds, err)
	}
	for _, nodes := range []string{"file,nodes\n1/b.txt,4\n", "num_nodes,graph,note\n4,1/b.txt,x\n"} {
		ints := writeFiles(t, map[string]string{"0/a.json": tri, "1/b.txt": path, "nodes.csv": nodes})
		ds, err = ReadFolder(ints, FolderOptions{})
		if err != nil || ds.ClassNames != nil || !slices.Equal(ds.Classes, []int{0, 1}) || ds.Graphs[1].N() != 4 {
			t.Fatalf("integer class folders, nodes.csv %q: %v, %v", nodes, ds, err)
		}
	}
	for files, want := range map[*map[string]string]string{
		{"ring/a.json": tri, "labels.csv": "file,label\nring/a.json,x\n"}: "give the classes one way",
		{"ring/a.json": tri, "star/c.xml": "<x/>"}:                        "unknown graph format",
		{"ring/README.md": "x", "star/.hidden": "y"}:                      "nor subfolders of them",
	} {
		if _, err := ReadFolder(writeFiles(t, *files), FolderOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want %q", *files, err, want)
		}
	}
}

// TestReadFolderLabelsTable: a table of labels under another name than labels.csv is refused,
// not read as an edge-list graph of file and class names.
func TestReadFolderLabelsTable(t *testing.T) {
	for _, name := range []string{"labels.txt", "Labels.tsv", "classes.txt", "nodes.txt"} {
		dir := t.TempDir()
		for file, text := range map[string]string{"g0.json": `{"adjacency": [[0,1],[1,0]]}`, name: "g0.json ring\n"} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ReadFolder(dir, FolderOptions{}); err == nil || !strings.Contains(err.Error(), "class labels go in labels.csv") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestReadFolderLabelTables: labels.csv as people and programs write it — any header, pandas'
// index column, tabs or semicolons, more columns or the two swapped under a header that names
// them — gives the same classes; a mistyped first row is still an error, not a header, and a
// table of more columns needs a header that names the two.
func TestReadFolderLabelTables(t *testing.T) {
	const g = `{"adjacency": [[0,1],[1,0]]}`
	for _, tc := range []struct{ table, err string }{
		{"file,label\ng0.json,ring\ng1.json,star\n", ""},
		{"graph,class\ng0,ring\ng1,star\n", ""},
		{",filename,target\n0,g0.json,ring\n1,g1.json,star\n", ""}, // pandas DataFrame.to_csv
		{"file\tlabel\ng0.json\tring\ng1.json\tstar\n", ""},
		{"file;label\ng0.json;ring\ng1.json;star\n", ""},
		{"g0.json,ring\ng1.json,star\n", ""},
		{"g9.json,ring\ng1.json,star\n", `"g9.json" is not a graph file of the folder, whose graphs are named like g0.json`},
		{",label\n0,ring\n1,star\n", `"0" is not a graph file of the folder: a table names each graph by its file's name (g0.json or g0), not by a number`}, // pandas' index
		{"file,label,extra\ng0.json,ring,x\ng1.json,star,y\n", ""},
		{"label,file\nring,g0.json\nstar,g1.json\n", ""},
		{"split;Graph_ID;Class\ntrain;g0;ring\ntest;g1;star\n", ""},
		{",graph,split,y\n0,g0.json,a,ring\n1,g1.json,b,star\n", ""},
		{"file,label,extra\ng0.json,ring,x\ng1.json,star\n", "2 cells, want 3 as in the header"},
		{"a,b,c\ng0.json,ring,x\n", `header "a,b,c" that does not name the file column`},
		{"g0.json,ring,x\ng1.json,star,y\n", "3 cells, want rows"},
	} {
		dir := t.TempDir()
		for file, text := range map[string]string{"g0.json": g, "g1.json": g, "labels.csv": tc.table} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ds, err := ReadFolder(dir, FolderOptions{})
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want %q", tc.table, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.table, err)
		case !slices.Equal(ds.ClassNames, []string{"ring", "star"}) || ds.Graphs[0].Label != 0 || ds.Graphs[1].Label != 1:
			t.Errorf("%q: classes %v, labels %d %d", tc.table, ds.ClassNames, ds.Graphs[0].Label, ds.Graphs[1].Label)
		}
	}
}

// TestReadFolderTextLabelsInFiles: class labels the files give as text (networkx's
// G.graph["label"] = "ring" in node-link, GraphML and GML) become text classes; an integer
// beside them is one more text.
func TestReadFolderTextLabelsInFiles(t *testing.T) {
	dir := t.TempDir()
	for file, text := range map[string]string{
		"a.json":    `{"graph": {"label": "ring"}, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`,
		"b.graphml": `<graphml><key id="d0" for="graph" attr.name="label" attr.type="string"/><graph edgedefault="undirected"><data key="d0">star</data><node id="0"/><node id="1"/><edge source="0" target="1"/></graph></graphml>`,
		"c.gml":     "graph [\n  label \"ring\"\n  node [\n    id 0\n  ]\n]\n",
		"d.json":    `{"graph": {"label": 7}, "nodes": [{"id": 0}]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range ds.Graphs {
		got = append(got, ds.ClassName(g))
	}
	if !slices.Equal(got, []string{"ring", "star", "ring", "7"}) || !slices.Equal(ds.ClassNames, []string{"7", "ring", "star"}) {
		t.Errorf("classes %v of %v", got, ds.ClassNames)
	}
}

// TestNotAGraphCompressed: the error for a number names a compressed file's graph as tables
// may, without both extensions.
func TestNotAGraphCompressed(t *testing.T) {
	_, err := newFileIndex([]string{"g1.graphml.gz", "g0.graphml.gz"}).named("0")
	if want := "(g0.graphml.gz or g0), not by a number"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestReadFolderLabelsOneNumber: class labels that are one number written differently ("1",
// "1.0", "01"), from labels.csv, the files or class folders, are refused by name rather than
// read as several classes; one spelling throughout, and texts that are no numbers, are read.
func TestReadFolderLabelsOneNumber(t *testing.T) {
	const one = `{"adjacency": [[0]]}`
	nodeLink := func(label string) string {
		return `{"graph": {"label": "` + label + `"}, "nodes": [{"id": 0}], "links": []}`
	}
	gml := func(label string) string { return "graph [ label \"" + label + "\" node [ id 0 ] ]\n" }
	for _, tc := range []struct {
		name    string
		files   map[string]string
		want    string // error; "" for none
		classes int
	}{
		{"labels.csv", map[string]string{"a.json": one, "b.json": one, "c.json": one, "d.json": one, "labels.csv": "a.json,1\nb.json,1.0\nc.json,01\nd.json,2\n"},
			`labels.csv: labels "1" (a.json), "1.0" (b.json) and "01" (c.json) are the same number written differently; write each class one way`, 0},
		{"labels.csv, integers", map[string]string{"a.json": one, "b.json": one, "labels.csv": "a.json,+1\nb.json,1\n"},
			`labels "+1" (a.json) and "1" (b.json) are the same number written differently`, 0},
		{"labels.csv, zeros", map[string]string{"a.json": one, "b.json": one, "c.json": one, "labels.csv": "a.json,x\nb.json,0\nc.json,-0.0\n"},
			`labels "0" (b.json) and "-0.0" (c.json) are the same number`, 0},
		{"node-link files", map[string]string{"a.json": nodeLink("1"), "b.json": nodeLink("1.0")},
			`labels "1" (a.json) and "1.0" (b.json) are the same number written differently`, 0},
		{"GML files", map[string]string{"a.gml": gml("01"), "b.gml": gml("1"), "c.gml": gml("2")},
			`labels "01" (a.gml) and "1" (b.gml) are the same number written differently`, 0},
		{"class folders", map[string]string{"1/a.json": one, "1.0/b.json": one},
			`class folders: labels "1" (1/a.json) and "1.0" (1.0/b.json) are the same number written differently`, 0},
		{"one spelling", map[string]string{"a.json": one, "b.json": one, "c.json": one, "labels.csv": "a.json,1.0\nb.json,1.0\nc.json,2.5\n"}, "", 2},
		{"one spelling, not Go's", map[string]string{"a.gml": gml("01"), "b.gml": gml("01"), "c.gml": gml("02")}, "", 2},
		{"texts", map[string]string{"a.json": one, "b.json": one, "c.json": one, "labels.csv": "a.json,inf\nb.json,Inf\nc.json,one\n"}, "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadFolder(writeFiles(t, tc.files), FolderOptions{})
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && ds.NumClasses() != tc.classes:
				t.Errorf("%d classes (%v %v), want %d", ds.NumClasses(), ds.Classes, ds.ClassNames, tc.classes)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
