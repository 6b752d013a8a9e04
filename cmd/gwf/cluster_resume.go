package main

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

// runRecord is OUTDIR/run<r>.json: one finished run of "gwf cluster" with what it was computed
// from, so that the same command run again (after a kill, or with more --runs) reuses the run
// instead of training it again. It is written after the run's embeddings CSV, so its presence
// means the run is complete.
type runRecord struct {
	Data           string          `json:"data"` // training.Fingerprint of the graphs
	Embedding      string          `json:"embedding"`
	KMeansRestarts int             `json:"kmeans_restarts"`
	Clusters       int             `json:"clusters,omitempty"` // K when it is not the number of classes
	Config         training.Config `json:"config"`             // with this run's seed
	Run            clusterRun      `json:"run"`
}

func runRecordPath(dir string, r int) string {
	return filepath.Join(dir, fmt.Sprintf("run%d.json", r))
}

// settings is the record without its result: what must match for a saved run to be reused.
func (rec runRecord) settings() ([]byte, error) {
	rec.Run = clusterRun{}
	return json.Marshal(rec)
}

// savedRun returns the run stored in dir for run r when it was made with the settings of want.
// A missing file gives ok = false; so does a file with other settings or one that cannot be read
// (then reason says why, and the run is made again and the file replaced).
func savedRun(dir string, r int, want runRecord) (run clusterRun, ok bool, reason string) {
	p := runRecordPath(dir, r)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return clusterRun{}, false, ""
	}
	if err != nil {
		return clusterRun{}, false, err.Error()
	}
	var got runRecord
	if err := json.Unmarshal(b, &got); err != nil {
		return clusterRun{}, false, fmt.Sprintf("%s: %v", p, err)
	}
	gs, err1 := got.settings()
	ws, err2 := want.settings()
	if err := errors.Join(err1, err2); err != nil {
		return clusterRun{}, false, err.Error()
	}
	if !bytes.Equal(gs, ws) {
		return clusterRun{}, false, fmt.Sprintf("%s was made with other data or settings", p)
	}
	if got.Run.Run != r || got.Run.Seed != want.Config.Seed || got.Run.Loss == nil {
		return clusterRun{}, false, fmt.Sprintf("%s does not hold run %d", p, r)
	}
	return got.Run, true, ""
}

// saveRun writes run r's record into dir, atomically.
func saveRun(dir string, rec runRecord) error {
	return writeOutput(nil, runRecordPath(dir, rec.Run.Run), func(w io.Writer) error {
		return writeJSON(w, rec)
	})
}
