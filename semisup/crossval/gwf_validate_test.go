package crossval

import (
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training/shard"
)

// TestGWFSpecValidate: the protocol's rules hold for a library caller as for the command.
func TestGWFSpecValidate(t *testing.T) {
	sc := semisup.DefaultConfig()
	noGWF := sc
	noGWF.NoGWF = true
	two := shard.Shard{Index: 0, Count: 2}
	for _, tc := range []struct {
		spec GWFSpec
		sc   semisup.Config
		want string
	}{
		{GWFSpec{CVOptions: CVOptions{Folds: 3}}, sc, ""},
		{GWFSpec{Shard: two, CVOptions: CVOptions{Folds: 3, Dir: "d"}}, sc, ""},
		{GWFSpec{Shard: two, CVOptions: CVOptions{Folds: 3}}, sc, "without a folder"},
		{GWFSpec{Shard: shard.Shard{Index: 0, Count: 4}, CVOptions: CVOptions{Folds: 3, Dir: "d"}}, sc, "more shards than the 3 folds"},
		{GWFSpec{Shard: shard.Shard{Index: 2, Count: 2}, CVOptions: CVOptions{Folds: 3, Dir: "d"}}, sc, "shard"},
		{GWFSpec{CVOptions: CVOptions{Folds: 3, Baselines: true}}, noGWF, "baselines need the GWF term"},
		{GWFSpec{CVOptions: CVOptions{Folds: 3, Select: &Selection{Validation: 0.2, Unsupervised: true}}}, noGWF, "β = 0 candidate"},
	} {
		err := tc.spec.Validate(tc.sc)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.spec, err, tc.want)
		}
	}
}
