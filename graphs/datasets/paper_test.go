package datasets_test

import (
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// TestPaperFeatures: the attribute datasets of the paper are learned with their attributes
// (standardized, balanced), which they have in the widths the paper states; the others from
// their structure. Names match as Load matches them.
func TestPaperFeatures(t *testing.T) {
	attributes := datasets.Features{Kind: graphs.FeaturesAttributes, Standardize: true, Balance: true}
	for name, want := range map[string]struct {
		features datasets.Features
		width    int // node attribute dimensions
	}{
		"AIDS": {attributes, 4}, "proteins": {attributes, 1}, "PROTEINS_full": {attributes, 29},
		"IMDB-BINARY": {datasets.Features{}, 0}, "MUTAG": {datasets.Features{}, 0},
	} {
		got, err := datasets.PaperFeatures(name)
		if err != nil || got != want.features {
			t.Errorf("%s: %+v, %v; want %+v", name, got, err, want.features)
		}
		if want.width == 0 {
			continue
		}
		s, err := datasets.Info(name)
		if err != nil || s.NodeAttributes != want.width {
			t.Errorf("%s: %d attribute dimensions (%v), want %d", name, s.NodeAttributes, err, want.width)
		}
	}
	if _, err := datasets.PaperFeatures("ENZYMES"); err == nil {
		t.Error("ENZYMES (not bundled): no error")
	}
}
