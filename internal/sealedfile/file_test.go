package sealedfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFile: a directory, an empty file and bytes that do not begin as gwf's files do are
// each named for what they are, not called corrupt; a gwf file (of any of gwf's formats,
// spaced or cut short) passes, for the decoder to check in full.
func TestCheckFile(t *testing.T) {
	sealed, err := Seal("gwf-test", 1, []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		content string // "DIR": a directory
		want    string // "" for none
	}{
		{"a directory", "DIR", "X is a directory, not a gwf model file"},
		{"empty", "", "X is empty (0 bytes), not a gwf model file"},
		{"random bytes", "\x8f\x12\x00\xffq\x03", "X is not a gwf model file (it does not start with gwf's header)"},
		{"a graph", `{"nodes": [], "links": []}`, "X is not a gwf model file (it does not start with gwf's header)"},
		{"another program's JSON file", `{"format":"torch"}`, "X is not a gwf model file (it does not start with gwf's header)"},
		{"white space only", "   \n", "X is not a gwf model file"},
		{"a gwf file", string(sealed), ""},
		{"a gwf file, spaced", ` { "format" : "gwf-semisup-model"}`, ""},
		{"a gwf file cut short", `{"form`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "X")
			if tc.content == "DIR" {
				err = os.Mkdir(p, 0o755)
			} else {
				err = os.WriteFile(p, []byte(tc.content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			err := CheckFile(p)
			if tc.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if want := filepath.Join(filepath.Dir(p), tc.want); err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, ErrNotModelFile) || errors.Is(err, ErrCorrupt) {
				t.Errorf("error %v, want ErrNotModelFile %q", err, want)
			}
		})
	}
	if err := CheckFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
