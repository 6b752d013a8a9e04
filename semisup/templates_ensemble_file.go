package semisup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/training"
)

// TemplateEnsembleFormat names the template ensemble's file (a sealed file, internal/sealedfile).
const TemplateEnsembleFormat = "gwf-templates-ensemble"

// templateEnsembleFileVersion is the version of the ensemble's file.
const templateEnsembleFileVersion = 1

// ensemblePayload is the file's payload: each member as a single model's file holds it, then
// what the members share.
type ensemblePayload struct {
	Members  []templatePayload       `json:"members"`
	Features *graphs.FeatureEncoding `json:"features,omitempty"`
	Classes  []int                   `json:"classes,omitempty"`
	Names    []string                `json:"class_names,omitempty"`
}

// IsTemplateFile reports whether the first bytes of a file name it a template model's or a
// template ensemble's.
func IsTemplateFile(head []byte) bool {
	return bytes.Contains(head, []byte(`"`+TemplateFormat+`"`)) || bytes.Contains(head, []byte(`"`+TemplateEnsembleFormat+`"`))
}

// Encode writes the ensemble's file.
func (e *TemplateEnsemble) Encode(w io.Writer) error {
	p := ensemblePayload{Features: e.Features, Classes: e.Classes, Names: e.ClassNames}
	for _, m := range e.Members {
		q := m.payload()
		q.Features, q.Classes, q.Names = nil, nil, nil // the ensemble's, written once
		p.Members = append(p.Members, q)
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("write template ensemble: %w", err)
	}
	file, err := sealedfile.Seal(TemplateEnsembleFormat, templateEnsembleFileVersion, payload)
	if err != nil {
		return fmt.Errorf("write template ensemble: %w", err)
	}
	_, err = w.Write(file)
	return err
}

// Save writes the ensemble atomically (internal/atomicfile).
func (e *TemplateEnsemble) Save(path string) error { return atomicfile.Write(path, e.Encode) }

// LoadTemplateEnsemble reads an ensemble file written by TemplateEnsemble.Save, or a single
// model's (TemplateModel.Save) as an ensemble of one.
func LoadTemplateEnsemble(path string) (*TemplateEnsemble, error) {
	return sealedfile.Load(path, DecodeTemplateEnsemble)
}

// DecodeTemplateEnsemble reads and checks an ensemble's file, or a single model's as an
// ensemble of one: every member as DecodeTemplates checks a model, and the members against
// each other (the same classes).
func DecodeTemplateEnsemble(r io.Reader) (*TemplateEnsemble, error) {
	raw, err := io.ReadAll(io.LimitReader(r, training.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(raw[:min(len(raw), 256)], []byte(`"`+TemplateEnsembleFormat+`"`)) {
		m, err := DecodeTemplates(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return &TemplateEnsemble{Members: []*TemplateModel{m}, Features: m.Features, ClassLabels: m.ClassLabels}, nil
	}
	body, err := sealedfile.Open(bytes.NewReader(raw), TemplateEnsembleFormat, templateEnsembleFileVersion, "gwf template ensemble", training.MaxFileBytes)
	if errors.Is(err, sealedfile.ErrCorrupt) {
		return nil, fmt.Errorf("%w: %w", ErrCorruptTemplates, err)
	} else if err != nil {
		return nil, err
	}
	var p ensemblePayload
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptTemplates, err)
	}
	if len(p.Members) < 1 || len(p.Members) > MaxMembers {
		return nil, fmt.Errorf("%w: %d members (1 to %d)", ErrCorruptTemplates, len(p.Members), MaxMembers)
	}
	e := &TemplateEnsemble{Features: p.Features, ClassLabels: ClassLabels{Classes: p.Classes, ClassNames: p.Names}}
	for k := range p.Members {
		q := &p.Members[k]
		q.Features, q.Classes, q.Names = p.Features, p.Classes, p.Names
		m, err := q.model()
		if err != nil {
			return nil, fmt.Errorf("%w: member %d: %w", ErrCorruptTemplates, k+1, err)
		}
		if k > 0 && m.Head.Classes() != e.Members[0].Head.Classes() {
			return nil, fmt.Errorf("%w: member %d scores %d classes, member 1 %d", ErrCorruptTemplates, k+1, m.Head.Classes(), e.Members[0].Head.Classes())
		}
		e.Members = append(e.Members, m)
	}
	return e, nil
}
