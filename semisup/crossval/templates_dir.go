package crossval

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
	// Version is the gwf build that trained the fold (buildinfo.Version): not part of what a
	// kept fold must match, but named when another build reuses it.
	Version string        `json:"gwf_version,omitempty"`
	Result  TemplatesFold `json:"result"`
}

const templatesFoldFormat = "gwf-templates-fold"

func templatesFoldPath(dir string, f int) string {
	return filepath.Join(dir, fmt.Sprintf("templates-fold%d.json", f))
}

// savedTemplatesFold returns fold f (1-based) of dir when it was computed with the settings
// and data of want, and the build that computed it (""; files kept before builds were
// recorded); ok is false otherwise (no file, other settings, a damaged file: the fold is
// trained again and the file replaced).
func savedTemplatesFold(dir string, f int, want templatesFoldRecord) (_ TemplatesFold, version string, ok bool) {
	var got templatesFoldRecord
	if !readKept(templatesFoldPath(dir, f), &got) || got.Format != templatesFoldFormat {
		return TemplatesFold{}, "", false
	}
	r, version := got.Result, got.Version
	got.Result, want.Result, want.Format = TemplatesFold{}, TemplatesFold{}, templatesFoldFormat
	got.Version, want.Version = "", ""
	if !sameKept(got, want) || r.Fold != f || !(r.Accuracy >= 0 && r.Accuracy <= 1) {
		return TemplatesFold{}, "", false
	}
	return r, version, true
}

// saveTemplatesFold writes a finished fold atomically.
func saveTemplatesFold(dir string, rec templatesFoldRecord) error {
	rec.Format = templatesFoldFormat
	return writeKept(templatesFoldPath(dir, rec.Result.Fold), rec)
}

// readKept reads the kept record at path into rec (false: no file, or not JSON of it).
func readKept(path string, rec any) bool {
	b, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(b, rec) == nil
}

// sameKept reports whether a and b, kept records with their results cleared, encode alike:
// the same settings and data (sameJSON; an encoding error is a mismatch).
func sameKept(a, b any) bool {
	same, err := sameJSON(a, b)
	return err == nil && same
}

// writeKept writes a kept record as indented JSON, atomically.
func writeKept(path string, rec any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		e := json.NewEncoder(w)
		e.SetIndent("", " ")
		return e.Encode(rec)
	})
}
