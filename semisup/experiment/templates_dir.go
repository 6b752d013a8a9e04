package experiment

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/semisup"
)

// templatesFoldRecord is a finished fold of the template model's cross-validation as kept in
// TemplatesOptions.Dir: the settings and data it was computed with, and its result.
type templatesFoldRecord struct {
	Format string                 `json:"format"`
	Config semisup.TemplateConfig `json:"config"`
	Folds  int                    `json:"folds"`
	Seed   uint64                 `json:"fold_seed"`
	Labels string                 `json:"labels"` // labelsFingerprint of the data's labels
	Graphs int                    `json:"graphs"`
	Result TemplatesFold          `json:"result"`
}

const templatesFoldFormat = "gwf-templates-fold"

func templatesFoldPath(dir string, f int) string {
	return filepath.Join(dir, fmt.Sprintf("templates-fold%d.json", f))
}

// savedTemplatesFold returns fold f (1-based) of dir when it was computed with the settings
// and data of want; ok is false otherwise (no file, other settings, a damaged file: the fold is
// trained again and the file replaced).
func savedTemplatesFold(dir string, f int, want templatesFoldRecord) (TemplatesFold, bool) {
	b, err := os.ReadFile(templatesFoldPath(dir, f))
	if err != nil {
		return TemplatesFold{}, false
	}
	var got templatesFoldRecord
	if err := json.Unmarshal(b, &got); err != nil || got.Format != templatesFoldFormat {
		return TemplatesFold{}, false
	}
	r := got.Result
	got.Result, want.Result, want.Format = TemplatesFold{}, TemplatesFold{}, templatesFoldFormat
	a, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(a) != string(w) || r.Fold != f || !(r.Accuracy >= 0 && r.Accuracy <= 1) {
		return TemplatesFold{}, false
	}
	return r, true
}

// saveTemplatesFold writes a finished fold atomically.
func saveTemplatesFold(dir string, rec templatesFoldRecord) error {
	rec.Format = templatesFoldFormat
	return atomicfile.Write(templatesFoldPath(dir, rec.Result.Fold), func(w io.Writer) error {
		e := json.NewEncoder(w)
		e.SetIndent("", " ")
		return e.Encode(rec)
	})
}
