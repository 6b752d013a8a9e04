package crossval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// unsupervisedRecord is CVOptions.Dir/unsupervised.json: the embeddings of the model trained
// without labels (the baselines' and the β = 0 candidate's, one for all folds) after every
// epoch, with what they were computed from, so that a cross-validation run again after a kill
// does not train that model again.
type unsupervisedRecord struct {
	Data    string          `json:"data"` // training.Fingerprint of the graphs
	Classes int             `json:"classes"`
	GWF     training.Config `json:"gwf"`
	Semisup semisup.Config  `json:"semisup"` // the head's and the encoder's settings, β = 0
	// Z[e] holds the embeddings after epoch e+1 in gonum's binary matrix format
	// (mat.Dense.MarshalBinary); SHA256 is the checksum of them all, in order.
	Z      [][]byte `json:"z"`
	SHA256 string   `json:"sha256"`
}

func unsupervisedPath(dir string) string { return filepath.Join(dir, "unsupervised.json") }

// settings is the record without its embeddings: what must match for them to be reused.
func (rec unsupervisedRecord) settings() ([]byte, error) {
	rec.Z, rec.SHA256 = nil, ""
	return json.Marshal(rec)
}

func checksum(z [][]byte) string {
	h := sha256.New()
	for _, b := range z {
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// unsupervisedInDir is FitUnsupervised through dir: the embeddings saved there with the same
// data and settings are reused (with the head as NewModel initialises it, as FitUnsupervised
// has it); otherwise the model is trained and its embeddings saved, atomically, after every
// epoch with the model beside them (unsupervisedCheckpointPath), so that a killed run resumes
// at its last epoch. A file that cannot be reused is reported through opt.Log and replaced.
func unsupervisedInDir(ctx context.Context, dir string, data []*graphs.Graph, fingerprint string, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions) (*Unsupervised, error) {
	cfg.Beta = 0
	want := unsupervisedRecord{Data: fingerprint, Classes: classes, GWF: gwf, Semisup: cfg}
	z, reason := savedUnsupervised(dir, want, len(data), gwf.Atoms, gwf.Epochs)
	m, u, err := newUnsupervised(data, classes, gwf, cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case len(z) == gwf.Epochs:
		u.Z = z
		opt.log(false, fmt.Sprintf("reusing the model trained without labels of %s (%d epochs)", unsupervisedPath(dir), len(z)))
		return u, nil
	case len(z) > 0:
		var resumed *semisup.Model
		if resumed, reason = savedUnsupervisedCheckpoint(dir, m, z); resumed != nil {
			m, u.Z = resumed, z
			opt.log(false, fmt.Sprintf("resuming the model trained without labels of %s after epoch %d of %d", unsupervisedCheckpointPath(dir), len(z), gwf.Epochs))
		}
	}
	if reason != "" {
		opt.log(true, fmt.Sprintf("not reusing the model trained without labels: %s", reason))
	}
	if len(u.Z) == 0 {
		opt.log(false, trainingUnsupervised)
	}
	save := func(m *semisup.Model) error {
		if len(u.Z) == gwf.Epochs {
			return nil // saved below, without the checkpoint
		}
		if err := m.Save(unsupervisedCheckpointPath(dir)); err != nil {
			return err
		}
		return saveUnsupervised(dir, want, u.Z)
	}
	if err := u.train(ctx, m, data, opt.Options, save); err != nil {
		return nil, err
	}
	if err := saveUnsupervised(dir, want, u.Z); err != nil {
		return nil, err
	}
	if err := os.Remove(unsupervisedCheckpointPath(dir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		opt.log(true, fmt.Sprintf("the model trained without labels is saved, its checkpoint not removed: %v", err))
	}
	return u, nil
}

// saveUnsupervised writes dir's unsupervised.json: rec's settings and the embeddings z, all
// epochs or those trained so far.
func saveUnsupervised(dir string, rec unsupervisedRecord, z []*mat.Dense) error {
	rec.Z = nil
	for _, e := range z {
		b, err := e.MarshalBinary()
		if err != nil {
			return fmt.Errorf("crossval: the unsupervised model's embeddings: %w", err)
		}
		rec.Z = append(rec.Z, b)
	}
	rec.SHA256 = checksum(rec.Z)
	err := atomicfile.Write(unsupervisedPath(dir), func(w io.Writer) error { return json.NewEncoder(w).Encode(rec) })
	if err != nil {
		return fmt.Errorf("crossval: saving the unsupervised model: %w", err)
	}
	return nil
}

// savedUnsupervised reads the embeddings of dir's unsupervised.json when it was saved with the
// settings of want and holds finite n×k matrices of 1 to epochs epochs (fewer: a run stopped
// before the last). A missing file gives nil and no reason; a file that cannot be read, is
// damaged or was saved with other settings gives a reason.
func savedUnsupervised(dir string, want unsupervisedRecord, n, k, epochs int) ([]*mat.Dense, string) {
	p := unsupervisedPath(dir)
	file, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, err.Error()
	}
	defer file.Close()
	// Base64 of epochs matrices with their 64-byte headers, and the settings: a larger file is
	// not one of these, and is not read.
	limit := int64(epochs)*(int64(n)*int64(k)*8+64)*4/3 + 1<<20
	b, err := jsonread.Object(file, limit)
	if errors.Is(err, jsonread.ErrTooLarge) {
		return nil, fmt.Sprintf("%s: larger than %d epochs of %d×%d embeddings", p, epochs, n, k)
	}
	if err != nil {
		return nil, fmt.Sprintf("%s: %v", p, err)
	}
	var got unsupervisedRecord
	if err := json.Unmarshal(b, &got); err != nil {
		return nil, fmt.Sprintf("%s: %v", p, err)
	}
	gs, err1 := got.settings()
	ws, err2 := want.settings()
	if err := errors.Join(err1, err2); err != nil {
		return nil, err.Error()
	}
	if !bytes.Equal(gs, ws) {
		return nil, fmt.Sprintf("%s was made with other data or settings", p)
	}
	if len(got.Z) == 0 || len(got.Z) > epochs {
		return nil, fmt.Sprintf("%s holds %d epochs, not 1 to %d", p, len(got.Z), epochs)
	}
	if checksum(got.Z) != got.SHA256 {
		return nil, fmt.Sprintf("%s: checksum mismatch (damaged)", p)
	}
	z := make([]*mat.Dense, len(got.Z))
	for e, raw := range got.Z {
		z[e] = new(mat.Dense)
		if err := z[e].UnmarshalBinary(raw); err != nil {
			return nil, fmt.Sprintf("%s: epoch %d: %v", p, e+1, err)
		}
		if r, c := z[e].Dims(); r != n || c != k {
			return nil, fmt.Sprintf("%s: epoch %d holds %d×%d embeddings, not %d×%d", p, e+1, r, c, n, k)
		}
		for _, v := range z[e].RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Sprintf("%s: epoch %d holds a non-finite embedding", p, e+1)
			}
		}
	}
	return z, ""
}
