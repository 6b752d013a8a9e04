package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadFolderPartlyLabelled: with PartialLabelsKept, a folder where only some graphs have a
// class label (labels.csv leaves some out or gives them an empty cell, as pandas writes a
// missing label; or only some files carry one) reads with the others unlabelled and the
// classes of the labelled ones; with PartialLabelsDropped as unlabelled, saying so; with
// neither, the same folders stay errors.
func TestReadFolderPartlyLabelled(t *testing.T) {
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edge := `{"adjacency": [[0, 1], [1, 0]]}`
	for _, tc := range []struct {
		name        string
		files       map[string]string
		strictError string
		labelled    []bool
		classes     []string // ClassNames, or Classes as text
	}{
		{"labels.csv leaves one out", map[string]string{"a.json": edge, "b.json": edge, "c.json": edge, "labels.csv": "file,label\na.json,ring\nc.json,star\n"},
			"no label for b.json", []bool{true, false, true}, []string{"ring", "star"}},
		{"an empty label cell", map[string]string{"a.json": edge, "b.json": edge, "c.json": edge, "labels.csv": "file,label\na.json,2\nb.json,\nc.json,-1\n"},
			`empty label for "b.json"`, []bool{true, false, true}, []string{"-1", "2"}},
		{"labels in some files", map[string]string{"a.json": `{"adjacency": [[0]], "label": 1}`, "b.json": `{"adjacency": [[0]]}`, "c.json": `{"adjacency": [[0]], "label": 0}`},
			"has a class label and b.json none", []bool{true, false, true}, []string{"0", "1"}},
		{"every cell empty", map[string]string{"a.json": edge, "b.json": edge, "labels.csv": "file,label\na.json,\nb.json,\n"},
			`empty label for "a.json"`, []bool{false, false}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				write(dir, name, text)
			}
			if _, err := ReadFolder(dir, FolderOptions{}); err == nil || !strings.Contains(err.Error(), tc.strictError) {
				t.Errorf("PartialLabelsRefused: error %v, want %q", err, tc.strictError)
			}
			ds, err := ReadFolder(dir, FolderOptions{PartialLabels: PartialLabelsKept})
			if err != nil {
				t.Fatal(err)
			}
			var labelled []bool
			for _, g := range ds.Graphs {
				labelled = append(labelled, g.HasLabel)
			}
			classes := ds.ClassNames
			if classes == nil {
				for c := range ds.Classes {
					classes = append(classes, ds.ClassText(c))
				}
			}
			if !slices.Equal(labelled, tc.labelled) || !slices.Equal(classes, tc.classes) {
				t.Fatalf("labelled %v, classes %v; want %v, %v", labelled, classes, tc.labelled, tc.classes)
			}
			want := 0
			for _, l := range tc.labelled {
				if !l {
					want++
				}
			}
			if ds.Unlabelled() != want || len(ds.LabelledOnly().Graphs) != len(ds.Graphs)-want {
				t.Errorf("Unlabelled %d, LabelledOnly %d graphs; want %d unlabelled", ds.Unlabelled(), len(ds.LabelledOnly().Graphs), want)
			}
			for _, g := range ds.Graphs {
				if g.HasLabel && ds.ClassName(g) == "" || !g.HasLabel && ds.ClassName(g) != "" {
					t.Errorf("%s: class %q with HasLabel %v", g.Name, ds.ClassName(g), g.HasLabel)
				}
			}
			if want > 0 && want < len(ds.Graphs) && Summarize(ds).Unlabelled != want {
				t.Errorf("summary: %d unlabelled, want %d", Summarize(ds).Unlabelled, want)
			}
			dropped, err := ReadFolder(dir, FolderOptions{PartialLabels: PartialLabelsDropped})
			if err != nil {
				t.Fatal(err)
			}
			if dropped.Unlabelled() != len(ds.Graphs) || dropped.NumClasses() != 0 {
				t.Errorf("PartialLabelsDropped: %d of %d graphs unlabelled, %d classes", dropped.Unlabelled(), len(ds.Graphs), dropped.NumClasses())
			}
			if said := strings.Join(dropped.LeftOut, "; "); (want > 0 && want < len(ds.Graphs)) != strings.Contains(said, "class labels left out") {
				t.Errorf("PartialLabelsDropped says %q", said)
			}
		})
	}
	// The first case's classes of the labelled graphs: a ring, c star.
	dir := t.TempDir()
	write(dir, "a.json", edge)
	write(dir, "b.json", edge)
	write(dir, "c.json", edge)
	write(dir, "labels.csv", "c,star\na,ring\n")
	ds, err := ReadFolder(dir, FolderOptions{PartialLabels: PartialLabelsKept})
	if err != nil {
		t.Fatal(err)
	}
	if ds.ClassName(ds.Graphs[0]) != "ring" || ds.ClassName(ds.Graphs[2]) != "star" {
		t.Errorf("classes %q, %q", ds.ClassName(ds.Graphs[0]), ds.ClassName(ds.Graphs[2]))
	}
}
