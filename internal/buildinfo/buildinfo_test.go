package buildinfo

import (
	"strings"
	"testing"
)

// TestVersion: the version names the Go release and the kernels, whatever the build.
func TestVersion(t *testing.T) {
	v := Version()
	if !strings.Contains(v, " go1.") || !strings.Contains(v, "kernels=") {
		t.Errorf("Version() = %q: no Go version or kernels", v)
	}
}
