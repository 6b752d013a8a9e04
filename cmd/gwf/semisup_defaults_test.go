package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training"
)

// parsedSemisup is the flags of 'gwf semisup' parsed from args.
func parsedSemisup(t *testing.T, args ...string) (*semisupFlags, *pflag.FlagSet) {
	t.Helper()
	var f semisupFlags
	fs := pflag.NewFlagSet("semisup", pflag.ContinueOnError)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f, fs
}

// gwfSettings are the effective settings of --method gwf: its semi-supervised and training
// configurations and the validation fraction.
func gwfSettings(t *testing.T, args ...string) (semisup.Config, training.Config, float64) {
	t.Helper()
	f, fs := parsedSemisup(t, append([]string{"--method", "gwf"}, args...)...)
	sc, err := f.gwfConfig(fs)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	cfg, _, err := f.train.Config(fs)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return sc, cfg, f.validation
}

// TestSemisupDefaults: without flags each method trains with its library defaults (the
// template model: semisup.DefaultTemplateConfig; --method gwf: semisup.DefaultConfig,
// training.DefaultConfig and crossval.DefaultValidation), and --help shows the template
// model's default of every shared flag with the paper's model's where it differs.
func TestSemisupDefaults(t *testing.T) {
	f, fs := parsedSemisup(t)
	tc, err := f.templateConfig(fs)
	if err != nil || !reflect.DeepEqual(tc, semisup.DefaultTemplateConfig()) {
		t.Errorf("templates without flags: %+v, %v; want %+v", tc, err, semisup.DefaultTemplateConfig())
	}

	sc, cfg, validation := gwfSettings(t)
	want := semisup.DefaultConfig()
	// The command names what the library's zero values mean: the encoder none, its widths.
	want.Encoder, want.EncoderHidden = semisup.EncoderNone, semisup.DefaultEncoderHidden()
	if !reflect.DeepEqual(sc, want) {
		t.Errorf("--method gwf without flags: %+v, want %+v", sc, want)
	}
	if !reflect.DeepEqual(cfg, training.DefaultConfig()) {
		t.Errorf("--method gwf training without flags: %+v, want %+v", cfg, training.DefaultConfig())
	}
	if validation != crossval.DefaultValidation {
		t.Errorf("--method gwf --validation %v, want %v", validation, crossval.DefaultValidation)
	}

	// The help: the template model's value as the default, and the other where it differs.
	d, g, tr := semisup.DefaultTemplateConfig(), semisup.DefaultConfig(), training.DefaultConfig()
	for flag, help := range map[string]string{
		"epochs":         fmt.Sprintf("(default %d; --method gwf: %d)", d.Epochs, tr.Epochs),
		"lr":             fmt.Sprintf("(default %g; --method gwf: %g)", d.LearningRate, tr.LearningRate),
		"batch":          fmt.Sprintf("(default %d)", d.BatchSize),
		"seed":           fmt.Sprintf("(default %d)", d.Seed),
		"feature-weight": fmt.Sprintf("(default %g)", d.FeatureWeight),
		"layers":         fmt.Sprintf("(default %d; --method gwf: %d)", layers.DefaultCG().MaxIter, tr.Layers),
		"hidden":         fmt.Sprintf("(default %q; --method gwf: %q)", widthsText(d.Hidden), widthsText(g.Hidden)),
		"beta":           fmt.Sprintf("(default %g; --method gwf: %g)", d.Beta, g.Beta),
		"validation":     fmt.Sprintf("(default %g; --method gwf: %g)", d.Validation, crossval.DefaultValidation),
		"encoder":        fmt.Sprintf("(default %q)", d.Encoder),
		"encoder-hidden": fmt.Sprintf("(default %q)", widthsText(d.EncoderHidden)),
		"structure":      fmt.Sprintf("(default %q)", d.Structure),
		"features":       `(default: the data's own, as 'gwf classify' reads them, or the structure alone where it does clearly better on the validation split; --method gwf: "none")`,
		"detach":         "(default true)",
		"templates":      fmt.Sprintf("(0: %d per class)", semisup.TemplatesPerClass),
		"template-nodes": fmt.Sprintf("(default [%d])", d.TemplateNodes),
		"members":        fmt.Sprintf("(default %d)", d.MemberCount()),
		"wl-labels":      fmt.Sprintf("(default %d)", d.WLLabels),
	} {
		line := flagLine(t, fs, flag)
		if !strings.HasSuffix(line, help) || strings.Count(line, "(default") > 1 {
			t.Errorf("--%s: help %q, want it to end in %q", flag, line, help)
		}
	}
	if got := fs.Lookup("wl").DefValue; got != strconv.Itoa(d.WLRounds) { // pflag does not print a default of 0
		t.Errorf("--wl defaults to %s, the library to %d", got, d.WLRounds)
	}
	if d.SolverIterations != 0 || !g.Detach {
		t.Errorf("the help above assumes TemplateConfig.SolverIterations 0 (%d) and Detach true by default (%v)", d.SolverIterations, g.Detach)
	}
}

// flagLine is the --help line of flag.
func flagLine(t *testing.T, fs *pflag.FlagSet, flag string) string {
	t.Helper()
	for _, l := range strings.Split(fs.FlagUsagesWrapped(0), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--"+flag+" ") {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf("no --%s in the help", flag)
	return ""
}

// TestSemisupGWFFlags: --method gwf reads every shared flag given as before, whatever the
// template model's defaults it is registered with.
func TestSemisupGWFFlags(t *testing.T) {
	sc, cfg, validation := gwfSettings(t, "--epochs", "7", "--lr", "0.2", "--batch", "4", "--seed", "3", "--feature-weight", "0.5",
		"--layers", "20", "--hidden", "16,8", "--beta", "0.5", "--validation", "0.3", "--encoder", "gin", "--encoder-hidden", "12")
	if cfg.Epochs != 7 || cfg.LearningRate != 0.2 || cfg.Batch != 4 || cfg.Seed != 3 || cfg.FeatureWeight != 0.5 || cfg.Layers != 20 {
		t.Errorf("training: %+v", cfg)
	}
	if !reflect.DeepEqual(sc.Hidden, []int{16, 8}) || sc.Beta != 0.5 || validation != 0.3 || sc.Encoder != semisup.EncoderGIN ||
		!reflect.DeepEqual(sc.EncoderHidden, []int{12}) || sc.Detach {
		t.Errorf("semisup: %+v, validation %v", sc, validation)
	}
	// And the template model the same flags (but the paper's model's encoder widths).
	f, fs := parsedSemisup(t, "--epochs", "7", "--lr", "0.2", "--batch", "4", "--seed", "3", "--feature-weight", "0.5",
		"--layers", "20", "--hidden", "16,8", "--beta", "0.5", "--validation", "0.3", "--encoder", "gin", "--encoder-hidden", "12")
	tc, err := f.templateConfig(fs)
	if err != nil || tc.Epochs != 7 || tc.LearningRate != 0.2 || tc.BatchSize != 4 || tc.Seed != 3 || tc.FeatureWeight != 0.5 ||
		tc.SolverIterations != 20 || !reflect.DeepEqual(tc.Hidden, []int{16, 8}) || tc.Beta != 0.5 || tc.Validation != 0.3 ||
		tc.Encoder != semisup.EncoderGIN || !reflect.DeepEqual(tc.EncoderHidden, []int{12}) {
		t.Errorf("templates: %+v, %v", tc, err)
	}
}

// TestSemisupDetachDefault: --method gwf detaches free z by default (semisup.DefaultDetach),
// not an encoder's embeddings nor without the GWF term, and --detach=false given wins.
func TestSemisupDetachDefault(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--encoder", "none"}, true},
		{[]string{"--encoder", "gin"}, false},
		{[]string{"--encoder", "gcn"}, false},
		{[]string{"--detach=false"}, false},
		{[]string{"--encoder", "none", "--detach=false"}, false},
		{[]string{"--no-gwf"}, false},
	} {
		if sc, _, _ := gwfSettings(t, tc.args...); sc.Detach != tc.want {
			t.Errorf("--method gwf %v: detach %v, want %v", tc.args, sc.Detach, tc.want)
		}
	}
	// Detaching what nothing else trains, or an encoder's embeddings, is a usage error.
	for _, args := range [][]string{{"--encoder", "gin", "--detach"}, {"--encoder", "gcn", "--detach=true"}, {"--no-gwf", "--detach"}} {
		f, fs := parsedSemisup(t, append([]string{"--method", "gwf"}, args...)...)
		if _, err := f.gwfConfig(fs); err == nil {
			t.Errorf("--method gwf %v accepted", args)
		}
	}
}

// --feature-weight auto gives the template model the balanced weight (BalanceWeight, a factor
// of 1), a number an absolute weight.
func TestSemisupTemplatesFeatureWeightAuto(t *testing.T) {
	for _, c := range []struct {
		arg      string
		weight   float64
		balanced bool
	}{{"auto", 1, true}, {"0.5", 0.5, false}} {
		f, fs := parsedSemisup(t, "--feature-weight", c.arg)
		tc, err := f.templateConfig(fs)
		if err != nil || tc.FeatureWeight != c.weight || tc.BalanceWeight != c.balanced {
			t.Errorf("--feature-weight %s: weight %v, balance %v, %v; want %v, %v", c.arg, tc.FeatureWeight, tc.BalanceWeight, err, c.weight, c.balanced)
		}
	}
}
