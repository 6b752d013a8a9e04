package nbkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNotebooksCallNbkit: each notebook is its experiment's nbkit call, not a copy of it — one
// cell runs nbkit.NAME on the notebook's config() — after the one setup line that all share,
// which pins the GoNB version .ci/notebooks installs.
func TestNotebooksCallNbkit(t *testing.T) {
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "notebooks"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GONB_VERSION=(\S+)`).FindSubmatch(ci)
	if m == nil {
		t.Fatal(".ci/notebooks names no GONB_VERSION")
	}
	setup := `!*go mod edit -replace=github.com/gwf-graphs/gwf="$(cd "$GONB_DIR/.." && pwd)" -require=github.com/gwf-graphs/gwf@v0.0.0 -require=github.com/janpfeifer/gonb@` + string(m[1])
	for name, fn := range map[string]string{"tour": "Tour", "fig3": "Fig3", "fig4": "Fig4", "table1": "Table1", "table2": "Table2"} {
		b, err := os.ReadFile(filepath.Join("..", name+".ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type   string   `json:"cell_type"`
				Source []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var code []string
		for _, c := range nb.Cells {
			if c.Type == "code" {
				code = append(code, strings.Join(c.Source, ""))
			}
		}
		if len(code) == 0 || code[0] != setup {
			t.Errorf("%s: the first code cell is not the setup line %q", name, setup)
		}
		calls := 0
		for _, c := range code {
			calls += strings.Count(c, "nbkit."+fn+"(context.Background(), config(), show)")
		}
		if calls != 1 {
			t.Errorf("%s: %d cells call nbkit.%s on config(), want 1", name, calls, fn)
		}
	}
}
