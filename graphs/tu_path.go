package graphs

import (
	"archive/zip"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ReadTUPath reads the TU dataset at p: a folder or a .zip archive as the TU site distributes
// them. In a folder, the dataset name is inferred from the NAME_A.txt[.gz] file there; when the
// folder holds several datasets, the one named like the folder is read, and otherwise it is an
// error (use ReadTU to choose). In an archive, the dataset may be in any folder of it (the TU
// site's archives hold NAME/NAME_A.txt, ...); when the archive holds several datasets, the one
// named like the archive is read, and otherwise it is an error. Errors name the file and the
// 1-based line; in an archive, the archive and the member, "p:NAME/NAME_A.txt:12: ...".
func ReadTUPath(p string, opt TUOptions) (*Dataset, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU dataset: %w", err)
	}
	if info.IsDir() {
		return readTUDir(p, opt)
	}
	if isTUFileName(p) {
		return nil, fmt.Errorf("graphs: read TU dataset: %s is one file of a TU dataset: give the folder that holds it, %s", p, filepath.Dir(p))
	}
	return readTUZip(p, opt)
}

// isTUFileName reports whether p is named like one file of a TU dataset (NAME_A.txt, ...).
func isTUFileName(p string) bool {
	base := strings.TrimSuffix(filepath.Base(p), ".gz")
	for _, s := range []string{"_A.txt", "_graph_indicator.txt", "_graph_labels.txt", "_node_labels.txt", "_node_attributes.txt", "_edge_labels.txt", "_edge_attributes.txt", "_graph_attributes.txt"} {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return false
}

// tuFolderHint says where the TU files are when dir has none but a PyG dataset root's raw/
// folder does ("" otherwise).
func tuFolderHint(dir string) string {
	raw := filepath.Join(dir, "raw")
	matches, _ := filepath.Glob(filepath.Join(raw, "*_A.txt*"))
	if len(matches) == 0 {
		return ""
	}
	return fmt.Sprintf(" (a PyTorch Geometric dataset root? its TU files are in %s: give that folder)", raw)
}

// readTUZip reads the TU dataset held in the zip archive at p (ReadTUPath).
func readTUZip(p string, opt TUOptions) (*Dataset, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU archive %s: %w", p, err)
	}
	defer zr.Close()
	type found struct{ dir, name string }
	var sets []found
	err = fs.WalkDir(zr, ".", func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, suffix := range []string{"_A.txt", "_A.txt.gz"} {
			if n, ok := strings.CutSuffix(path.Base(q), suffix); ok && n != "" {
				f := found{path.Dir(q), n}
				if !slices.Contains(sets, f) {
					sets = append(sets, f)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU archive %s: %w", p, err)
	}
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(p, `\`, "/")), ".zip")
	var pick []found
	for _, f := range sets {
		if f.name == base {
			pick = append(pick, f)
		}
	}
	if len(sets) == 1 {
		pick = sets
	}
	switch {
	case len(sets) == 0:
		return nil, fmt.Errorf("graphs: read TU archive %s: no NAME_A.txt or NAME_A.txt.gz in it", p)
	case len(pick) != 1:
		var names []string
		for _, f := range sets {
			names = append(names, path.Join(f.dir, f.name))
		}
		return nil, fmt.Errorf("graphs: read TU archive %s: it holds several datasets (%s); extract it and use ReadTU to pick one",
			p, strings.Join(names, ", "))
	}
	r := &tuReader{fsys: zr, dir: pick[0].dir, name: pick[0].name, opt: opt, zip: p}
	ds, err := r.read()
	if err != nil {
		return nil, fmt.Errorf("graphs: read TU dataset %s: %w", pick[0].name, err)
	}
	return ds, nil
}
