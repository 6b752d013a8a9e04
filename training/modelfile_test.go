package training

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	data := mutag(t, 10)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	m.History = []EpochStats{{Epoch: 1, Loss: 0.5, Seconds: 1}}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got.Z, m.Z) || got.Config != m.Config || got.Fingerprint != m.Fingerprint || len(got.History) != 1 {
		t.Error("round trip changed the model")
	}
	for k := range m.V {
		if !mat.Equal(got.V[k], m.V[k]) {
			t.Errorf("atom %d changed", k)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestLoadRefusesDamagedFiles(t *testing.T) {
	m, err := NewModel(graphs.Slice(mutag(t, 5)), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for name, text := range map[string]string{
		"truncated":   good[:len(good)/2],
		"empty":       "",
		"flipped":     strings.Replace(good, "\"z\":[[", "\"z\":[[1", 1),
		"not a model": `{"format":"other","version":1}`,
	} {
		if _, err := Decode(strings.NewReader(text)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
	}
	future := strings.Replace(good, `"version":1`, `"version":99`, 1)
	if _, err := Decode(strings.NewReader(future)); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("future version: %v", err)
	}
}

// TestLoadNotAModelFile: a directory, an empty file and random bytes given for a model are
// each named for what they are, not called corrupt.
func TestLoadNotAModelFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string // "DIR": a directory
		want    string
	}{
		{"a directory", "DIR", "X is a directory, not a gwf model file"},
		{"empty", "", "X is empty (0 bytes), not a gwf model file"},
		{"random bytes", "\x8f\x12\x00\xffq\x03\x9a", "X is not a gwf model file (it does not start with gwf's header)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "X")
			var err error
			if tc.content == "DIR" {
				err = os.Mkdir(p, 0o755)
			} else {
				err = os.WriteFile(p, []byte(tc.content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = Load(p)
			if want := "load model: " + filepath.Join(filepath.Dir(p), tc.want); err == nil || err.Error() != want || errors.Is(err, ErrCorrupt) {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}
