package crossval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/semisup"
)

// A fold in training is checkpointed in the fold directory after every epoch, so that a killed
// run resumes it at that epoch instead of training it again: Dir/fold<f>.checkpoint.json holds
// where its model selection stands (selectProgress without the models), and names by their
// SHA-256 the two models beside it, written before it: the candidate in training
// (fold<f>.model.checkpoint) and the best epoch's model so far (fold<f>.best.checkpoint).
// All three are removed once the fold is saved.
type foldCheckpoint struct {
	Settings    json.RawMessage `json:"settings"` // foldRecord.settings of the run
	Fold        int             `json:"fold"`
	Candidate   int             `json:"candidate"`
	Curve       []float64       `json:"curve,omitempty"`
	Choice      Choice          `json:"choice"`
	ModelSHA256 string          `json:"model_sha256,omitempty"` // "" once all candidates are trained
	BestSHA256  string          `json:"best_sha256"`
}

// maxFoldCheckpoint bounds what is read of a checkpoint record: its validation curves are a
// few numbers per epoch and candidate.
const maxFoldCheckpoint = 16 << 20

func foldCheckpointPath(dir string, f int) string {
	return filepath.Join(dir, fmt.Sprintf("fold%d.checkpoint.json", f))
}

func foldModelPath(dir string, f int, which string) string {
	return filepath.Join(dir, fmt.Sprintf("fold%d.%s.checkpoint", f, which))
}

// removeFoldCheckpoint removes fold f's checkpoint files (those that exist).
func removeFoldCheckpoint(dir string, f int) error {
	var errs []error
	for _, p := range []string{foldCheckpointPath(dir, f), foldModelPath(dir, f, "model"), foldModelPath(dir, f, "best")} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// foldResume is the resume of fold f of the run whose settings are want, in dir: its saved
// progress when it continues this run's selection sel, with validation graphs and n graphs
// (otherwise the fold starts over, and log says why), and a save that keeps the progress
// after every epoch.
func foldResume(dir string, f int, want foldRecord, sel Selection, validation, n int, log func(bool, string)) (*selectResume, error) {
	settings, err := want.settings()
	if err != nil {
		return nil, err
	}
	r := &selectResume{}
	var bestSaved *semisup.Model
	from, bestSHA, reason := loadFoldCheckpoint(dir, f, settings, sel, want.GWF.Epochs, validation, n)
	switch {
	case from != nil:
		r.from, bestSaved = from, from.Best
		where := fmt.Sprintf("candidate %d after epoch %d", from.Candidate+1, len(from.Curve))
		if from.Model == nil {
			where = "every candidate trained"
		}
		log(false, fmt.Sprintf("fold %d: resuming %s (%s)", f, foldCheckpointPath(dir, f), where))
	case reason != "":
		log(true, fmt.Sprintf("fold %d: not resuming the checkpoint: %s", f, reason))
	}
	r.save = func(p selectProgress) error {
		rec := foldCheckpoint{Settings: settings, Fold: f, Candidate: p.Candidate, Curve: p.Curve, Choice: p.Choice}
		var err error
		if p.Model != nil {
			if rec.ModelSHA256, err = saveHashed(foldModelPath(dir, f, "model"), p.Model); err != nil {
				return err
			}
		}
		if p.Best != bestSaved {
			if bestSHA, err = saveHashed(foldModelPath(dir, f, "best"), p.Best); err != nil {
				return err
			}
			bestSaved = p.Best
		}
		rec.BestSHA256 = bestSHA
		err = atomicfile.Write(foldCheckpointPath(dir, f), func(w io.Writer) error { return json.NewEncoder(w).Encode(rec) })
		if err != nil {
			return fmt.Errorf("crossval: fold %d checkpoint: %w", f, err)
		}
		return nil
	}
	return r, nil
}

// saveHashed saves m at path and returns the SHA-256 of the file written.
func saveHashed(path string, m *semisup.Model) (string, error) {
	h := sha256.New()
	if err := atomicfile.Write(path, func(w io.Writer) error { return m.Encode(io.MultiWriter(w, h)) }); err != nil {
		return "", fmt.Errorf("crossval: checkpoint %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// loadHashed loads the model at path when its file's SHA-256 is sha.
func loadHashed(path, sha string) (*semisup.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	m, err := semisup.Decode(io.TeeReader(f, h))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if hex.EncodeToString(h.Sum(nil)) != sha {
		return nil, fmt.Errorf("%s is not the model its checkpoint record names", path)
	}
	return m, nil
}

// loadFoldCheckpoint reads fold f's checkpoint in dir when it was saved by a run of these
// settings, selection sel, epochs, validation graphs and n graphs, with the SHA-256 of its best
// model's file. No checkpoint gives nil and no reason; one that cannot be resumed (a choice that
// could not have been made, which a refit would train for) gives the reason.
func loadFoldCheckpoint(dir string, f int, settings []byte, sel Selection, epochs, validation, n int) (progress *selectProgress, bestSHA, reason string) {
	p := foldCheckpointPath(dir, f)
	file, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", ""
	}
	if err != nil {
		return nil, "", err.Error()
	}
	defer file.Close()
	b, err := jsonread.Object(file, maxFoldCheckpoint)
	if err != nil {
		return nil, "", fmt.Sprintf("%s: %v", p, err)
	}
	var rec foldCheckpoint
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, "", fmt.Sprintf("%s: %v", p, err)
	}
	if !bytes.Equal(rec.Settings, settings) || rec.Fold != f {
		return nil, "", fmt.Sprintf("%s was made with other data or settings", p)
	}
	c, k := rec.Choice, len(sel.Candidates)
	if rec.Candidate < 0 || rec.Candidate > k || len(c.Curves) != rec.Candidate || c.Validation != validation ||
		c.Candidate < 0 || c.Candidate >= k || (rec.ModelSHA256 == "") != (rec.Candidate == k) ||
		c.Epoch < 1 || c.Epoch > epochs || len(rec.Curve) > epochs {
		return nil, "", fmt.Sprintf("%s does not fit the run's %d candidates, %d epochs and %d validation graphs", p, k, epochs, validation)
	}
	out := &selectProgress{Candidate: rec.Candidate, Curve: rec.Curve, Choice: c}
	if out.Best, err = loadHashed(foldModelPath(dir, f, "best"), rec.BestSHA256); err != nil {
		return nil, "", err.Error()
	}
	if ok, err := sameJSON(out.Best.Config, sel.Candidates[c.Candidate]); err != nil || !ok || out.Best.GWF.Z.RawMatrix().Rows != n {
		return nil, "", fmt.Sprintf("%s is not a model of the chosen candidate on %d graphs", foldModelPath(dir, f, "best"), n)
	}
	if rec.Candidate == k {
		return out, rec.BestSHA256, ""
	}
	if out.Model, err = loadHashed(foldModelPath(dir, f, "model"), rec.ModelSHA256); err != nil {
		return nil, "", err.Error()
	}
	joint := sel.Candidates[rec.Candidate]
	joint.Head.Steps = 0
	m := out.Model
	if ok, err := sameJSON(m.Config, joint); err != nil || !ok || len(m.History) != len(rec.Curve) || m.Optimizer == nil || m.GWF.Z.RawMatrix().Rows != n {
		return nil, "", fmt.Sprintf("%s is not candidate %d after epoch %d on %d graphs", foldModelPath(dir, f, "model"), rec.Candidate+1, len(rec.Curve), n)
	}
	return out, rec.BestSHA256, ""
}
