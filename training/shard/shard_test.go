package shard

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for text, want := range map[string]Shard{"0/1": Whole(), "3/16": {3, 16}, " 2 / 4 ": {2, 4}} {
		s, err := Parse(text)
		if err != nil || s != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", text, s, err, want)
		}
		if back, err := Parse(s.String()); err != nil || back != s {
			t.Errorf("Parse(%q.String()) = %v, %v", text, back, err)
		}
	}
	for _, text := range []string{"", "1", "4/4", "-1/3", "0/0", "a/b", "1/2/3"} {
		if _, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) succeeded", text)
		}
	}
}

// TestRangeCovers: for every count and corpus size the ranges are contiguous, in order, cover
// the corpus exactly once and differ in size by at most one.
func TestRangeCovers(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for total := 0; total <= 30; total++ {
			next, small, big := 0, total, 0
			for i := range n {
				lo, hi := Shard{i, n}.Range(total)
				if lo != next || hi < lo {
					t.Fatalf("n=%d total=%d: shard %d is [%d, %d), want it to start at %d", n, total, i, lo, hi, next)
				}
				small, big = min(small, hi-lo), max(big, hi-lo)
				next = hi
			}
			if next != total || big-small > 1 {
				t.Fatalf("n=%d total=%d: the shards end at %d, sizes %d..%d", n, total, next, small, big)
			}
		}
	}
}

func TestPartName(t *testing.T) {
	cases := map[string]string{
		"emb.csv":          "emb.shard-03-of-16.csv",
		"/tmp/a.b/out.npy": "/tmp/a.b/out.shard-03-of-16.npy",
		"out":              "out.shard-03-of-16",
	}
	for out, want := range cases {
		got := PartName(out, Shard{3, 16})
		if got != want {
			t.Errorf("PartName(%q) = %q, want %q", out, got, want)
		}
		if s, ok := ParsePartName(got); !ok || s != (Shard{3, 16}) {
			t.Errorf("ParsePartName(%q) = %v, %v", got, s, ok)
		}
	}
	for _, name := range []string{"emb.csv", "emb.shard-5-of-5.csv", "emb.shard-x-of-2.csv"} {
		if s, ok := ParsePartName(name); ok {
			t.Errorf("ParsePartName(%q) = %v", name, s)
		}
	}
}

func TestOrder(t *testing.T) {
	parts := []string{"e.shard-2-of-3.csv", "e.shard-0-of-3.csv", "e.shard-1-of-3.csv"}
	got, err := Order(parts)
	if err != nil || strings.Join(got, " ") != "e.shard-0-of-3.csv e.shard-1-of-3.csv e.shard-2-of-3.csv" {
		t.Errorf("Order = %v, %v", got, err)
	}
	if got, err := Order([]string{"b.csv", "a.csv"}); err != nil || got[0] != "b.csv" {
		t.Errorf("unnamed parts: %v, %v (want the given order)", got, err)
	}
	bad := map[string][]string{
		"missing": {"e.shard-0-of-3.csv", "e.shard-2-of-3.csv"},
		"twice":   {"e.shard-0-of-2.csv", "f.shard-0-of-2.csv", "e.shard-1-of-2.csv"},
		"counts":  {"e.shard-0-of-2.csv", "e.shard-1-of-3.csv"},
		"mixed":   {"e.shard-0-of-2.csv", "x.csv"},
		"none":    nil,
	}
	for name, parts := range bad {
		if _, err := Order(parts); err == nil {
			t.Errorf("%s: Order(%v) succeeded", name, parts)
		}
	}
}

// env is a fake environment.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestFromEnv(t *testing.T) {
	ok := []struct {
		name  string
		env   func(string) string
		count int
		want  Shard
	}{
		{"slurm 0-based", env(EnvSlurmTaskID, "2", EnvSlurmTaskMin, "0", EnvSlurmTaskMax, "3", EnvSlurmTaskCount, "4", EnvSlurmTaskStep, "1"), 0, Shard{2, 4}},
		{"slurm 1-based", env(EnvSlurmTaskID, "1", EnvSlurmTaskMin, "1", EnvSlurmTaskMax, "4", EnvSlurmTaskCount, "4"), 0, Shard{0, 4}},
		{"slurm count agrees", env(EnvSlurmTaskID, "3", EnvSlurmTaskCount, "4"), 4, Shard{3, 4}},
		{"slurm count from caller", env(EnvSlurmTaskID, "3"), 5, Shard{3, 5}},
		{"kubernetes", env(EnvJobCompletionIndex, "7"), 8, Shard{7, 8}},
		{"slurm wins", env(EnvSlurmTaskID, "1", EnvSlurmTaskCount, "2", EnvJobCompletionIndex, "0"), 0, Shard{1, 2}},
	}
	for _, c := range ok {
		s, set, err := FromEnv(c.env, c.count)
		if err != nil || !set || s != c.want {
			t.Errorf("%s: FromEnv = %v, %v, %v; want %v", c.name, s, set, err, c.want)
		}
	}
	if _, set, err := FromEnv(env(), 3); set || err != nil {
		t.Errorf("empty environment: set = %v, err = %v", set, err)
	}
	bad := []struct {
		name  string
		env   func(string) string
		count int
	}{
		{"not a number", env(EnvSlurmTaskID, "x", EnvSlurmTaskCount, "2"), 0},
		{"step", env(EnvSlurmTaskID, "2", EnvSlurmTaskCount, "2", EnvSlurmTaskStep, "2"), 0},
		{"gaps", env(EnvSlurmTaskID, "2", EnvSlurmTaskMin, "0", EnvSlurmTaskMax, "9", EnvSlurmTaskCount, "3"), 0},
		{"no count", env(EnvSlurmTaskID, "0"), 0},
		{"count disagrees", env(EnvSlurmTaskID, "0", EnvSlurmTaskCount, "4"), 3},
		{"index past count", env(EnvSlurmTaskID, "4", EnvSlurmTaskCount, "4"), 0},
		{"kubernetes without count", env(EnvJobCompletionIndex, "0"), 0},
		{"kubernetes index past count", env(EnvJobCompletionIndex, "3"), 3},
		{"kubernetes not a number", env(EnvJobCompletionIndex, "one"), 3},
	}
	for _, c := range bad {
		if s, set, err := FromEnv(c.env, c.count); err == nil || !set {
			t.Errorf("%s: FromEnv = %v, %v, %v; want an error", c.name, s, set, err)
		}
	}
}

// TestResolve: the shard text wins over the environment; a count must agree with either and
// cannot stand alone; nothing asked for is Whole().
func TestResolve(t *testing.T) {
	slurm := env(EnvSlurmTaskID, "1", EnvSlurmTaskCount, "3")
	for _, c := range []struct {
		name, text string
		count      int
		env        func(string) string
		want       Shard
		ok         bool
	}{
		{"nothing", "", 0, env(), Whole(), false},
		{"text", "1/4", 0, env(), Shard{1, 4}, true},
		{"text over the environment", "0/2", 2, slurm, Shard{0, 2}, true},
		{"environment", "", 0, slurm, Shard{1, 3}, true},
		{"kubernetes", "", 4, env(EnvJobCompletionIndex, "2"), Shard{2, 4}, true},
	} {
		s, ok, err := Resolve(c.text, c.count, c.env)
		if err != nil || ok != c.ok || s != c.want {
			t.Errorf("%s: Resolve = %v, %v, %v; want %v, %v", c.name, s, ok, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		name, text string
		count      int
	}{{"bad text", "2/2", 0}, {"count disagrees", "0/2", 3}, {"count alone", "", 3}, {"negative count", "", -1}} {
		if s, ok, err := Resolve(c.text, c.count, env()); err == nil || ok || s != Whole() {
			t.Errorf("%s: Resolve = %v, %v, %v; want the whole and an error", c.name, s, ok, err)
		}
	}
}
