package datasets

import (
	"bufio"
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
)

// data holds one folder per dataset under tu/, plus tu/README.md. It is read-only.
//
//go:embed tu
var data embed.FS

// root is the folder of data that holds the datasets.
const root = "tu"

// FS returns the bundled files, rooted at the data folder: "README.md" and one folder per
// dataset, e.g. "MUTAG/MUTAG_A.txt.gz". Use it to read files Load ignores (edge labels, the TU
// READMEs) or to call graphs.ReadTU directly.
func FS() fs.FS {
	sub, err := fs.Sub(data, root)
	if err != nil {
		// Unreachable: root is a valid path and embedded.
		panic(err)
	}
	return sub
}

// Names returns the names of the bundled datasets, sorted.
func Names() []string {
	entries, err := data.ReadDir(root)
	if err != nil {
		panic(err) // unreachable: the folder is embedded
	}
	var names []string
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// resolve finds the bundled dataset called name: an exact match, else the single one equal to
// it ignoring case ("mutag", "imdb-binary").
func resolve(name string) (string, error) {
	names := Names()
	var folded []string
	for _, n := range names {
		if n == name {
			return n, nil
		}
		if strings.EqualFold(n, name) {
			folded = append(folded, n)
		}
	}
	if len(folded) == 1 {
		return folded[0], nil
	}
	return "", fmt.Errorf("datasets: unknown dataset %q (bundled: %s)", name, strings.Join(names, ", "))
}

// Load reads a bundled dataset with graphs.ReadTU. The name is matched exactly or, failing that,
// ignoring case.
func Load(name string, opt graphs.TUOptions) (*graphs.Dataset, error) {
	canon, err := resolve(name)
	if err != nil {
		return nil, err
	}
	return graphs.ReadTU(data, path.Join(root, canon), canon, opt)
}

// Stats describes a bundled dataset as 'gwf datasets' lists it (graphs.Description): the
// summary of its graphs as Info reads them (with their one-hot node labels when it has any:
// FeatureDim and NodeLabels are then their number), its node attribute dimension, what it has
// that gwf does not read, and whether it has node labels.
type Stats struct {
	graphs.Description
	HasNodeLabels bool `json:"has_node_labels"`
}

// Info loads a bundled dataset and computes its statistics. It reads the node labels when there
// are any and only the first line of the node attributes (Load checks the rest).
func Info(name string) (Stats, error) {
	canon, err := resolve(name)
	if err != nil {
		return Stats{}, err
	}
	dir := path.Join(root, canon)
	_, hasNL, err := find(dir, canon+"_node_labels")
	if err != nil {
		return Stats{}, err
	}
	opt := graphs.TUOptions{EdgeLabels: true}
	if hasNL {
		opt.Features = graphs.FeaturesLabels
	}
	ds, err := graphs.ReadTU(data, dir, canon, opt)
	if err != nil {
		return Stats{}, err
	}
	s := Stats{Description: graphs.Describe(ds, ""), HasNodeLabels: hasNL}
	attr, hasAttr, err := find(dir, canon+"_node_attributes")
	if err != nil {
		return Stats{}, err
	}
	if hasAttr {
		if s.NodeAttributes, err = firstLineWidth(attr); err != nil {
			return Stats{}, err
		}
	}
	return s, nil
}

// find returns the path of base.txt or base.txt.gz in dir of the bundle.
func find(dir, base string) (string, bool, error) {
	for _, ext := range []string{".txt", ".txt.gz"} {
		p := path.Join(dir, base+ext)
		_, err := fs.Stat(data, p)
		if err == nil {
			return p, true, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", false, fmt.Errorf("datasets: %w", err)
		}
	}
	return "", false, nil
}

// firstLineWidth counts the comma-separated fields of the first non-empty line of a TU file.
func firstLineWidth(p string) (int, error) {
	f, err := data.Open(p)
	if err != nil {
		return 0, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(p, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return 0, fmt.Errorf("datasets: %s: %w", p, err)
		}
		defer zr.Close()
		r = zr
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			return strings.Count(line, ",") + 1, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("datasets: %s: %w", p, err)
	}
	return 0, fmt.Errorf("datasets: %s: no attribute lines", p)
}
