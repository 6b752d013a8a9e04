package dataflags

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func parse(t *testing.T, args ...string) (*Flags, error) {
	t.Helper()
	var f Flags
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f, f.Check()
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"--dataset", "mutag"}, ""},
		{[]string{"--tu", "x.zip"}, ""},
		{nil, "give the data"},
		{[]string{"--dataset", "MUTAG", "--graphs", "d"}, "only one"},
		{[]string{"--dataset", "nope"}, "unknown dataset"},
		{[]string{"--dataset", "MUTAG", "--max-nodes", "0"}, "--max-nodes"},
		{[]string{"--dataset", "MUTAG", "--max-memory", "-1"}, "--max-memory"},
		{[]string{"--dataset", "MUTAG", "--subset", "-2"}, "--subset"},
		{[]string{"--dataset", "MUTAG", "--features", "colour"}, "--features"},
		{[]string{"--graphs", "d", "--features", "labels"}, "TU data"},
	} {
		_, err := parse(t, c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

func TestLoadAndString(t *testing.T) {
	f, err := parse(t, "--dataset", "MUTAG", "--subset", "10")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 10 {
		t.Errorf("%d graphs, want the subset's 10", len(ds.Graphs))
	}
	if s := f.String(); s != "--dataset MUTAG --subset 10 --subset-seed 1" {
		t.Errorf("String() = %q", s)
	}
	if !f.Given() {
		t.Error("Given() is false with --dataset")
	}
}
