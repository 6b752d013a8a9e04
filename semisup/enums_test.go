package semisup

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEnumJSON: the typed settings are written as the names they have always been, and a file
// with those names reads back the same settings.
func TestEnumJSON(t *testing.T) {
	c := DefaultConfig()
	c.Activation, c.Input, c.Encoder = Tanh, InputLambda, EncoderGIN
	tc := DefaultTemplateConfig()
	tc.NodeFeatures, tc.Encoder = NodeFeaturesNone, EncoderAuto
	for _, tt := range []struct {
		v    any
		want string
	}{
		{DefaultConfig(), `{"beta":0.1,"hidden":[32],"activation":"relu","input":"centered","detach":true,"head_training":{"steps":500,"learning_rate":0.01,"weight_decay":0.0001}}`},
		{c, `{"beta":0.1,"hidden":[32],"activation":"tanh","input":"lambda","detach":true,"encoder":"gin","head_training":{"steps":500,"learning_rate":0.01,"weight_decay":0.0001}}`},
		{DefaultTemplateConfig(), `{"templates":0,"template_nodes":12,"feature_weight":1,"structure":"adjacency","wl_labels":3,"node_features":"auto","encoder":"none","encoder_hidden":[32,32],"hidden":[64],"learning_rate":0.01,"epochs":60,"batch_size":32,"validation":0.1,"solver_tolerance":0.000001,"seed":1,"members":3}`},
		{tc, `{"templates":0,"template_nodes":12,"feature_weight":1,"structure":"adjacency","wl_labels":3,"node_features":"none","encoder":"auto","encoder_hidden":[32,32],"hidden":[64],"learning_rate":0.01,"epochs":60,"batch_size":32,"validation":0.1,"solver_tolerance":0.000001,"seed":1,"members":3}`},
		{&MLP{Activation: Tanh}, `{"activation":"tanh"}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%T written as\n%s\nwant\n%s", tt.v, b, tt.want)
		}
		back := reflect.New(reflect.TypeOf(tt.v))
		if err := json.Unmarshal([]byte(tt.want), back.Interface()); err != nil {
			t.Fatal(err)
		}
		if got := back.Elem().Interface(); !reflect.DeepEqual(got, tt.v) {
			t.Errorf("%s read as %+v, want %+v", tt.want, got, tt.v)
		}
	}
}

// TestEnumValid: each setting's Valid accepts its values (and "" where that has a meaning)
// and nothing else.
func TestEnumValid(t *testing.T) {
	for a, want := range map[Activation]bool{ReLU: true, Tanh: true, "": false, "sigmoid": false} {
		if a.Valid() != want {
			t.Errorf("Activation(%q).Valid() = %v", a, !want)
		}
	}
	for in, want := range map[Input]bool{"": true, InputZ: true, InputLambda: true, InputCentered: true, "softmax": false} {
		if in.Valid() != want {
			t.Errorf("Input(%q).Valid() = %v", in, !want)
		}
	}
	for s, want := range map[NodeFeatureSource]bool{"": true, NodeFeaturesData: true, NodeFeaturesNone: true, NodeFeaturesAuto: true, "gin": false} {
		if s.Valid() != want {
			t.Errorf("NodeFeatureSource(%q).Valid() = %v", s, !want)
		}
	}
	for e, want := range map[EncoderKind][2]bool{"": {false, true}, EncoderNone: {false, true}, EncoderGCN: {true, false},
		EncoderGIN: {true, false}, EncoderAuto: {false, false}, "gat": {false, false}} {
		if got := [2]bool{e.IsGNN(), e.IsFree()}; got != want {
			t.Errorf("EncoderKind(%q): IsGNN, IsFree = %v, want %v", e, got, want)
		}
	}
}
