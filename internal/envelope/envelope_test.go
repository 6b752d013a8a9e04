package envelope

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	payload := []byte(`{"a":[1,2,3]}`)
	file, err := Seal("thing", 3, payload)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Open(bytes.NewReader(file), "thing", 3, "test", 1<<20)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("Open = %s, %v", got, err)
	}
	s := string(file)
	for name, c := range map[string]struct {
		text    string
		max     int64
		want    error
		message string
	}{
		"truncated":     {s[:len(s)/2], 1 << 20, ErrCorrupt, ""},
		"empty":         {"", 1 << 20, ErrCorrupt, ""},
		"tampered":      {strings.Replace(s, "[1,", "[7,", 1), 1 << 20, ErrCorrupt, "checksum"},
		"other format":  {strings.Replace(s, `"thing"`, `"other"`, 1), 1 << 20, ErrCorrupt, `not a test file (format "other")`},
		"other version": {strings.Replace(s, `"version":3`, `"version":4`, 1), 1 << 20, ErrVersion, "version 4"},
		"too large":     {s, 10, ErrCorrupt, "larger than 10 bytes"},
	} {
		_, err := Open(strings.NewReader(c.text), "thing", 3, "test", c.max)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.message) {
			t.Errorf("%s: %v, want %v saying %q", name, err, c.want, c.message)
		}
	}
}

func TestSealToIsSeal(t *testing.T) {
	for _, payload := range []string{`{}`, `{"a":[1,2.5e-300],"b":"x\u003cy"}`, `[]`} {
		want, err := Seal("gwf-test", 3, []byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := SealTo(&got, "gwf-test", 3, []byte(payload)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("SealTo wrote\n%s\nSeal\n%s", got.Bytes(), want)
		}
	}
}
