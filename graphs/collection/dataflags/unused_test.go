package dataflags

import (
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
)

func TestUnusedFeatures(t *testing.T) {
	for _, tc := range []struct {
		offered []graphs.FeatureKind
		read    graphs.FeatureKind
		want    string
	}{
		{[]graphs.FeatureKind{graphs.FeaturesLabels, graphs.FeaturesAttributes}, graphs.FeaturesNone, "D has node labels and attributes, not used here (--features none: structure only, the paper's setting and this command's default); --features both --standardize uses them"},
		{[]graphs.FeatureKind{graphs.FeaturesAttributes}, graphs.FeaturesNone, "D has node attributes, not used here (--features none: structure only, the paper's setting and this command's default); --features attributes --standardize uses them"},
		{[]graphs.FeatureKind{graphs.FeaturesLabels}, graphs.FeaturesNone, "; --features labels uses them"},
		{[]graphs.FeatureKind{graphs.FeaturesLabels}, graphs.FeaturesLabels, ""},
		{nil, graphs.FeaturesNone, ""},
	} {
		ds := &graphs.Dataset{Name: "D", Offered: tc.offered, Encoding: graphs.FeatureEncoding{Kind: tc.read}}
		got := UnusedFeatures(ds)
		if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
			t.Errorf("offered %v, read %v: got %q, want %q", tc.offered, tc.read, got, tc.want)
		}
	}
}
