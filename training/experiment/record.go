package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/training"
)

// record is Dir/run<r>.json: one finished GWF run with what it was computed from, so that the
// same experiment run again (after a kill, or with more runs) reuses the run instead of
// training it again. It is written after the run's embeddings CSV, so its presence means the
// run is complete. The field names are those `gwf cluster --output-dir` has always written, so
// older records are reused too.
type record struct {
	Data           string          `json:"data"` // training.Fingerprint of the graphs
	Embedding      string          `json:"embedding"`
	KMeansRestarts int             `json:"kmeans_restarts"`
	Clusters       int             `json:"clusters,omitempty"` // 0: the number of classes
	Trainer        string          `json:"trainer,omitempty"`  // Options.Trainer's name ("": the paper's model)
	Config         training.Config `json:"config"`             // with this run's seed
	Run            RunResult       `json:"run"`
	// Assign is the run's cluster of every graph (absent from records written before it was
	// kept: such runs are reused without their assignments).
	Assign []int `json:"assign,omitempty"`
}

func recordPath(dir string, r int) string {
	return filepath.Join(dir, fmt.Sprintf("run%d.json", r))
}

func embeddingsPath(dir string, r int) string {
	return filepath.Join(dir, fmt.Sprintf("embeddings-run%d.csv", r))
}

func reportPath(dir string) string { return filepath.Join(dir, "report.json") }

// settings is the record without its result: what must match for a saved run to be reused.
func (rec record) settings() ([]byte, error) {
	rec.Run, rec.Assign = RunResult{}, nil
	return json.Marshal(rec)
}

// savedRun returns the run stored in dir for run r when it was made with the settings of want.
// A missing file gives ok = false; so does a file with other settings or one that cannot be
// read (then reason says why, and the run is made again and the file replaced).
func savedRun(dir string, r int, want record) (run RunResult, ok bool, reason string) {
	p := recordPath(dir, r)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return RunResult{}, false, ""
	}
	if err != nil {
		return RunResult{}, false, err.Error()
	}
	var got record
	if err := json.Unmarshal(b, &got); err != nil {
		return RunResult{}, false, fmt.Sprintf("%s: %v", p, err)
	}
	gs, err1 := got.settings()
	ws, err2 := want.settings()
	if err := errors.Join(err1, err2); err != nil {
		return RunResult{}, false, err.Error()
	}
	if !bytes.Equal(gs, ws) {
		return RunResult{}, false, fmt.Sprintf("%s was made with other data or settings", p)
	}
	if got.Run.Run != r || got.Run.Seed != want.Config.Seed || len(got.Run.Loss) == 0 {
		return RunResult{}, false, fmt.Sprintf("%s does not hold run %d", p, r)
	}
	run = got.Run
	run.Assign = got.Assign
	return run, true, ""
}

// saveRun writes the run's record into dir, atomically.
func saveRun(dir string, rec record) error {
	return writeFile(recordPath(dir, rec.Run.Run), func(w io.Writer) error { return writeJSON(w, rec) })
}
