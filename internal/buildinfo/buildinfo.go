// Package buildinfo says which build of gwf is running, for the version command and for the
// reports that record what produced them.
package buildinfo

import (
	"runtime/debug"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// Version is the module version from the build information ("(devel)" for a build from a
// source tree, the tag for 'go install ...@vX.Y.Z'), then the VCS revision (12 hex digits,
// "+dirty" when the tree had uncommitted changes) when the build knows it, the Go version and
// the matrix kernels in use: "(devel) 943f3f4c1a2b go1.26.0 kernels=avx2".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown) kernels=" + simd.Kernels()
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		v += " " + rev
		if dirty {
			v += "+dirty"
		}
	}
	return v + " " + bi.GoVersion + " kernels=" + simd.Kernels()
}
