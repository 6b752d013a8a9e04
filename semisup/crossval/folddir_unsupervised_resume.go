package crossval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup"
)

// unsupervisedCheckpointPath is the model trained without labels as it stood after the last
// epoch of a partial unsupervised.json (a run stopped before its last epoch): the two together
// resume the run at that epoch. It is removed once the last epoch is saved.
func unsupervisedCheckpointPath(dir string) string {
	return filepath.Join(dir, "unsupervised.checkpoint")
}

// savedUnsupervisedCheckpoint is dir's checkpoint when it continues the embeddings z saved
// beside it: a model of fresh's settings after epoch len(z), with the Adam state to resume it
// exactly, whose embeddings are the last of z. Otherwise it gives nil and the reason.
func savedUnsupervisedCheckpoint(dir string, fresh *semisup.Model, z []*mat.Dense) (*semisup.Model, string) {
	p := unsupervisedCheckpointPath(dir)
	m, err := semisup.Load(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Sprintf("%s holds %d of %d epochs and there is no %s to resume them from", unsupervisedPath(dir), len(z), fresh.GWF.Config.Epochs, p)
	}
	if err != nil {
		return nil, err.Error()
	}
	same, err := sameJSON(m.Config, fresh.Config)
	if err == nil && same {
		same, err = sameJSON(m.GWF.Config, fresh.GWF.Config)
	}
	switch {
	case err != nil:
		return nil, fmt.Sprintf("%s: %v", p, err)
	case !same:
		return nil, fmt.Sprintf("%s was made with other settings", p)
	case len(m.History) != len(z) || m.Optimizer == nil:
		return nil, fmt.Sprintf("%s is the model after epoch %d, not %d with its optimizer state", p, len(m.History), len(z))
	case !mat.Equal(m.GWF.Z, z[len(z)-1]):
		return nil, fmt.Sprintf("%s does not hold the embeddings of %s's epoch %d", p, unsupervisedPath(dir), len(z))
	}
	return m, ""
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) (bool, error) {
	ja, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ja, jb), nil
}
