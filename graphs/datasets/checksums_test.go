package datasets

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestChecksums checks every bundled file against the size and sha256 (of the uncompressed
// bytes) that tu/README.md lists for it, and that the README lists every file.
func TestChecksums(t *testing.T) {
	readme, err := fs.ReadFile(FS(), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	// | `AIDS/AIDS_A.txt.gz` | `AIDS//AIDS_A.txt` | 796282 | `9da8...` |
	row := regexp.MustCompile("(?m)^\\| `([^`]+\\.gz)` \\| `[^`]+` \\| (\\d+) \\| `([0-9a-f]{64})` \\|$")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		file, size, sum := m[1], m[2], m[3]
		listed[file] = true
		t.Run(file, func(t *testing.T) {
			f, err := FS().Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			n, err := io.Copy(h, zr)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := strconv.ParseInt(size, 10, 64); n != want {
				t.Errorf("%d bytes uncompressed, README says %d", n, want)
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != sum {
				t.Errorf("sha256 %s, README says %s", got, sum)
			}
		})
	}
	if len(listed) == 0 {
		t.Fatal("no checksum rows found in README.md")
	}
	err = fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "README.md" {
			return err
		}
		if !listed[p] {
			t.Errorf("%s is bundled but has no checksum in README.md", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "sha256") {
		t.Error("README.md does not mention sha256")
	}
}
