package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// floorOf is the floor of a module package as docs/design.md defines them: internal/ and the
// leaves that import nothing of the module on the ground floor (0), then graphs, layers,
// training, semisup, and the commands and notebooks above them.
func floorOf(pkg string) int {
	top, _, _ := strings.Cut(pkg, "/")
	switch {
	case strings.HasPrefix(pkg, "internal/scratch/"): // programs a checkout may keep, git-ignored
		return 5
	case top == "internal", slices.Contains([]string{"layers/csr", "layers/emd", "layers/tape", "layers/observe"}, pkg):
		return 0
	case top == "graphs":
		return 1
	case top == "layers":
		return 2
	case top == "training":
		return 3
	case top == "semisup":
		return 4
	}
	return 5 // cmd, notebooks, the programs of docs and of internal/scratch
}

// TestFloors: no package of the module imports one on a floor above its own (docs/design.md),
// and a classify run's packages, in the order docs/design.md lists them, each import the next.
func TestFloors(t *testing.T) {
	imports := moduleImports(t)
	for pkg, deps := range imports {
		for _, dep := range deps {
			if floorOf(dep) > floorOf(pkg) {
				t.Errorf("%s (floor %d) imports %s (floor %d)", pkg, floorOf(pkg), dep, floorOf(dep))
			}
		}
	}
	for _, path := range [][]string{
		{"cmd/gwf", "semisup/crossval", "semisup/fgwsvm", "layers/pairwise", "layers", "layers/csr"},
		{"cmd/gwf", "graphs/collection/dataflags", "graphs/collection", "graphs", "layers/csr"},
	} {
		for i := 1; i < len(path); i++ {
			if !slices.Contains(imports[path[i-1]], path[i]) {
				t.Errorf("%s does not import %s", path[i-1], path[i])
			}
			if floorOf(path[i]) > floorOf(path[i-1]) {
				t.Errorf("%s climbs to %s", path[i-1], path[i])
			}
		}
	}
}

// moduleImports lists the module's packages (paths within it) with the module packages each
// imports (none: an empty list), from go list; it skips t without a go command.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const module = "github.com/gwf-graphs/gwf/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		imports[pkg] = []string{}
		for _, imp := range f[1:] {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				imports[pkg] = append(imports[pkg], dep)
			}
		}
	}
	return imports
}

// TestDesignImports: the import table of docs/design.md ("The package picture and numerics")
// is the module's: it lists every package, and each row that names its imports (a path, "-" or
// "leaves") names exactly the module packages it imports; a row of a pattern (notebooks/*)
// names every package that one of its packages imports. A row of prose (cmd/gwf) is checked
// for being listed only.
func TestDesignImports(t *testing.T) {
	imports := moduleImports(t)
	for pkg := range imports {
		if strings.HasPrefix(pkg, "internal/scratch/") { // git-ignored: not the module's
			delete(imports, pkg)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := designTable(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{} // a pattern's row covers the packages without a row of their own
	for _, r := range rows {
		for _, name := range r.names {
			if !strings.HasSuffix(name, "/*") {
				listed[name] = true
			}
		}
	}
	for _, r := range rows {
		for _, name := range r.names {
			if prefix, ok := strings.CutSuffix(name, "/*"); ok {
				for pkg, deps := range imports {
					if !strings.HasPrefix(pkg, prefix+"/") || listed[pkg] {
						continue
					}
					listed[pkg] = true
					for _, dep := range deps {
						if r.exact && !slices.Contains(r.imports, dep) {
							t.Errorf("design.md says %s import %v; %s imports %s too", name, r.imports, pkg, dep)
						}
					}
				}
				continue
			}
			if _, ok := imports[name]; !ok {
				t.Errorf("design.md lists %s, which is no package", name)
				continue
			}
			if !r.exact {
				continue
			}
			got := slices.Sorted(slices.Values(imports[name]))
			want := slices.Sorted(slices.Values(r.imports))
			if !slices.Equal(got, want) {
				t.Errorf("design.md says %s imports %v; it imports %v", name, want, got)
			}
		}
	}
	for pkg := range imports {
		if !listed[pkg] {
			t.Errorf("design.md does not list %s", pkg)
		}
	}
}

// designRow is one row of design.md's import table: the packages it names and, where exact,
// the module packages they import.
type designRow struct {
	names   []string
	imports []string
	exact   bool
}

// designTable reads the import table: the first code block after the heading "The package
// picture and numerics". A row is the package names (separated by ", "; a name without a
// slash in a first column that starts with internal/ is under internal/), then, after two
// spaces or more, the imports up to the first word that is no package path ("-" and "leaves"
// say none), then prose; lines that start with spaces continue the row.
func designTable(doc string) ([]designRow, error) {
	_, sec, ok := strings.Cut(doc, "## The package picture and numerics")
	if !ok {
		return nil, errors.New("no section \"The package picture and numerics\"")
	}
	_, block, ok := strings.Cut(sec, "\n```\n")
	if !ok {
		return nil, errors.New("no code block in the section")
	}
	block, _, _ = strings.Cut(block, "\n```")
	isPath := func(w string) bool {
		return regexp.MustCompile(`^[a-z0-9]+(/[a-z0-9*]+)*$`).MatchString(w) && w != "leaves"
	}
	var rows []designRow
	var r *designRow
	namesOpen, prose := false, false
	consume := func(words []string) {
		for _, w := range words {
			switch {
			case prose:
				return
			case w == "-" || strings.HasPrefix(w, "leaves"):
				r.exact, prose = true, true
			case isPath(w) && strings.Contains(w, "/") || slices.Contains([]string{"graphs", "layers", "training", "semisup"}, w):
				r.imports, r.exact = append(r.imports, w), true
			default:
				prose = true
			}
		}
	}
	for _, line := range strings.Split(block, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		cols := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), 2)
		cont := strings.HasPrefix(line, " ")
		switch {
		case cont && namesOpen: // the first column goes on
		case cont:
			if r != nil {
				consume(strings.Fields(strings.TrimSpace(line)))
			}
			continue
		default:
			rows = append(rows, designRow{})
			r = &rows[len(rows)-1]
			prose = false
		}
		names := strings.TrimSpace(cols[0])
		namesOpen = strings.HasSuffix(names, ",")
		for _, n := range strings.Split(names, ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			if !strings.Contains(n, "/") && len(r.names) > 0 && strings.HasPrefix(r.names[0], "internal/") {
				n = "internal/" + n
			}
			r.names = append(r.names, n)
		}
		if len(cols) == 2 {
			consume(strings.Fields(cols[1]))
		}
	}
	return rows, nil
}
