package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// An ensemble of one is the single model of the same seed.
func TestTemplateEnsembleOfOneIsTheModel(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 11)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 3, 0.25, 1
	e, err := TrainTemplates(context.Background(), data, labels, 2, cfg, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	want, err := m.Logits(context.Background(), data, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Probabilities(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(got, Probabilities(want), 1e-12) {
		t.Errorf("an ensemble of one scores\n%v\nthe model\n%v", mat.Formatted(got), mat.Formatted(Probabilities(want)))
	}
}

// An ensemble's probabilities are the mean of its members' softmax, rows of a distribution;
// its members are different models (their own seeds); and the ensemble does not depend on
// how many workers trained it (members side by side or one after another).
func TestTemplateEnsembleMeanOfMembers(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 12)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 3, 0.25, 3
	var probs []*mat.Dense
	for _, workers := range []int{1, 2} {
		e, err := TrainTemplates(context.Background(), data, labels, 2, cfg, TemplateOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Members) != 3 {
			t.Fatalf("%d members", len(e.Members))
		}
		p, err := e.Probabilities(context.Background(), data, workers)
		if err != nil {
			t.Fatal(err)
		}
		want := mat.NewDense(len(data), 2, nil)
		var first *mat.Dense
		for k, m := range e.Members {
			if m.Config.Seed != MemberSeed(cfg.Seed, k) {
				t.Errorf("member %d has seed %d", k, m.Config.Seed)
			}
			l, err := m.Logits(context.Background(), data, 1)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				first = l
			} else if mat.EqualApprox(l, first, 1e-9) {
				t.Errorf("member %d scores as member 1", k+1)
			}
			for i := 0; i < len(data); i++ { // the softmax written out
				a, b := l.At(i, 0), l.At(i, 1)
				want.Set(i, 0, want.At(i, 0)+1/(1+math.Exp(b-a))/3)
				want.Set(i, 1, want.At(i, 1)+1/(1+math.Exp(a-b))/3)
			}
		}
		if !mat.EqualApprox(p, want, 1e-12) {
			t.Errorf("probabilities\n%v\nwant the members' mean\n%v", mat.Formatted(p), mat.Formatted(want))
		}
		for i := 0; i < len(data); i++ {
			if s := p.At(i, 0) + p.At(i, 1); math.Abs(s-1) > 1e-12 || mat.Min(p) < 0 {
				t.Errorf("graph %d: probabilities %v", i, p.RawRowView(i))
			}
		}
		probs = append(probs, p)
	}
	if !mat.Equal(probs[0], probs[1]) {
		t.Error("one and two workers trained different ensembles")
	}
}

// A saved ensemble predicts as the trained one, writes the same file again, and a single
// model's file loads as an ensemble of one; damaged or inconsistent files are refused.
func TestTemplateEnsembleSaveLoad(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 12, 13)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 2, 0.25, 2
	e, err := TrainTemplates(context.Background(), data, labels, 2, cfg, TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e.Classes = []int{-1, 1}
	dir := t.TempDir()
	path := filepath.Join(dir, "e.templates")
	if err := e.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTemplateEnsemble(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.Probabilities(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Probabilities(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) || back.Label(0) != -1 || len(back.Members) != 2 {
		t.Errorf("the loaded ensemble scores differently, or has labels %v and %d members", back.Classes, len(back.Members))
	}
	var a, b bytes.Buffer
	if err := e.Encode(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("a loaded ensemble writes another file")
	}
	file := a.Bytes()
	if !IsTemplateFile(file[:min(256, len(file))]) {
		t.Error("IsTemplateFile does not know the ensemble's file")
	}

	single := filepath.Join(dir, "m.templates")
	if err := e.Members[1].Save(single); err != nil {
		t.Fatal(err)
	}
	one, err := LoadTemplateEnsemble(single)
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.Members[1].Logits(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := one.Probabilities(context.Background(), data, 0); err != nil || !mat.EqualApprox(p, Probabilities(l), 1e-12) {
		t.Errorf("a single model's file as an ensemble: %v", err)
	}

	for _, bad := range [][]byte{
		file[:len(file)/2],
		bytes.Replace(file, []byte(`"members"`), []byte(`"membres"`), 1),
	} {
		if _, err := DecodeTemplateEnsemble(bytes.NewReader(bad)); err == nil {
			t.Error("a damaged file was read")
		}
	}
	// Valid members that disagree on the classes, or none, sealed as a valid file.
	raw, err := sealedfile.Open(bytes.NewReader(file), TemplateEnsembleFormat, templateEnsembleFileVersion, "t", 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*ensemblePayload){
		"no member": func(p *ensemblePayload) { p.Members = nil },
		"three classes": func(p *ensemblePayload) {
			q := &p.Members[1]
			last := len(q.HeadW) - 1
			for r := range q.HeadW[last] {
				q.HeadW[last][r] = append(q.HeadW[last][r], 0)
			}
			q.HeadB[last] = append(q.HeadB[last], 0)
			p.Classes = nil
		},
	} {
		var p ensemblePayload
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		change(&p)
		payload, _ := json.Marshal(p)
		sealed, _ := sealedfile.Seal(TemplateEnsembleFormat, templateEnsembleFileVersion, payload)
		if _, err := DecodeTemplateEnsemble(bytes.NewReader(sealed)); !errors.Is(err, ErrCorruptTemplates) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A member's error (here a cancelled context) stops the ensemble with it; absurd sizes are
// refused.
func TestTrainTemplatesErrors(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 8, 14)
	cfg := smallTemplateConfig()
	cfg.Members = 3
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainTemplates(ctx, data, labels, 2, cfg, TemplateOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled ensemble: %v", err)
	}
	for _, n := range []int{-1, MaxMembers + 1} {
		cfg.Members = n
		if _, err := TrainTemplates(context.Background(), data, labels, 2, cfg, TemplateOptions{}); err == nil {
			t.Errorf("%d members accepted", n)
		}
	}
}
