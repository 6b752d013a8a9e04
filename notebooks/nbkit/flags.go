package nbkit

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// NewFlagSet returns a program's flag set: the flag library of gwf (pflag, GNU-style
// --flags), exiting with a usage message on a bad command line.
func NewFlagSet(name string) *pflag.FlagSet {
	return pflag.NewFlagSet(name, pflag.ExitOnError)
}

// OutputDir registers --output-dir, the folder a program writes (as gwf cluster's), and its
// old spelling --out, hidden and deprecated: it still works, with a warning.
func OutputDir(fs *pflag.FlagSet, p *string, def string) {
	fs.StringVar(p, "output-dir", def, "folder for the figures, the numbers and report.md")
	fs.StringVar(p, "out", def, "old spelling of --output-dir")
	if err := fs.MarkDeprecated("out", "use --output-dir"); err != nil {
		panic(err) // unreachable: the flag was just defined
	}
}

// FeaturesFlag registers --features, the node features per dataset, defaulting to the paper's.
func FeaturesFlag(fs *pflag.FlagSet, p *Features) {
	*p = PaperFeatures()
	fs.Var(featuresValue{p}, "features", "node features per dataset, DATASET=none|labels|attributes|attributes-std|attributes-bal, comma-separated (unlisted: none)")
}

// featuresValue is Features as a pflag.Value.
type featuresValue struct{ p *Features }

func (v featuresValue) String() string { return v.p.String() }
func (v featuresValue) Type() string   { return "string" }
func (v featuresValue) Set(s string) error {
	f, err := ParseFeatures(s)
	if err != nil {
		return err
	}
	*v.p = f
	return nil
}

// SplitList splits a comma-separated list, leaving out empty entries.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// JoinFloats is xs comma-separated, each in its shortest form.
func JoinFloats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return strings.Join(s, ",")
}
