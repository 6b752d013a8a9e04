package training

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gwf-graphs/gwf/layers"
)

// TestConfigJSONUnchanged: a configuration as model files held it before the solver's name had
// a type of its own reads back to that solver and is written again byte for byte; a name that
// is no solver's reads back too, for Validate to refuse.
func TestConfigJSONUnchanged(t *testing.T) {
	old := []byte(`{"atoms":30,"atom_size":0,"solver":"badmm","gamma":1,"layers":50,"inner":5,` +
		`"feature_weight":1,"gwb_layers":2,"learning_rate":0.05,"epochs":10,"batch":32,"z_init_std":0.01,"seed":1}`)
	var c Config
	if err := json.Unmarshal(old, &c); err != nil {
		t.Fatal(err)
	}
	if want := DefaultConfig().WithSolverDefaults(layers.SolverBADMM); c != want {
		t.Errorf("read as %+v, want %+v", c, want)
	}
	again, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, old) {
		t.Errorf("written again as\n%s\nwant\n%s", again, old)
	}
	bad := bytes.Replace(old, []byte(`"badmm"`), []byte(`"sinkhorn"`), 1)
	if err := json.Unmarshal(bad, &c); err != nil || c.Solver != "sinkhorn" {
		t.Errorf("an unknown solver: read as %q, %v", c.Solver, err)
	} else if c.Validate() == nil {
		t.Error("an unknown solver: accepted by Validate")
	}
}
