package dataflags

import (
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
)

// UnusedFeatures is what to tell a user whose data were read without node features although
// the source has some (Dataset.Offered): which, and the --features that reads them. It is ""
// where features were read or the source offers none.
func UnusedFeatures(ds *graphs.Dataset) string {
	kinds := ds.Offered
	if ds.Encoding.Kind != graphs.FeaturesNone || len(kinds) == 0 {
		return ""
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	flag := "--features labels"
	switch {
	case len(kinds) == 2:
		flag = "--features both --standardize"
	case kinds[0] == graphs.FeaturesAttributes:
		flag = "--features attributes --standardize"
	}
	return fmt.Sprintf("%s has node %s, not used here (--features none: structure only, the paper's setting and this command's default); %s uses them, as gwf classify does unless told not to",
		ds.Name, strings.Join(names, " and "), flag)
}
