package main

import (
	"os/exec"
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
		for _, imp := range f[1:] {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				imports[pkg] = append(imports[pkg], dep)
				if floorOf(dep) > floorOf(pkg) {
					t.Errorf("%s (floor %d) imports %s (floor %d)", pkg, floorOf(pkg), dep, floorOf(dep))
				}
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
