package trainflags

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// FeatureWeight is --feature-weight: a non-negative number, or "auto" for the weight of
// training.BalanceFeatures, which needs the data and is resolved once it is read (Resolve).
type FeatureWeight struct {
	Auto   bool
	Weight float64
}

func (f *FeatureWeight) String() string {
	if f.Auto {
		return "auto"
	}
	return strconv.FormatFloat(f.Weight, 'g', -1, 64)
}

// Set parses a number or "auto".
func (f *FeatureWeight) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		f.Auto = true
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return errors.New(`want a number or "auto"`)
	}
	f.Auto, f.Weight = false, v
	return nil
}

// Type names the flag's values in --help.
func (f *FeatureWeight) Type() string { return "weight|auto" }

// Register adds --feature-weight, the weight w or "auto" by default; usage says what auto
// means in the command.
func (f *FeatureWeight) Register(fs *pflag.FlagSet, w float64, auto bool, usage string) {
	f.Weight, f.Auto = w, auto
	fs.Var(f, "feature-weight", usage)
}

// apply sets a numeric weight; "auto" leaves c alone until the data is read.
func (f *FeatureWeight) apply(c *training.Config) {
	if !f.Auto {
		c.FeatureWeight = f.Weight
	}
}

// Resolve is the weight the flag gives on data: the number given, or for "auto" the weight of
// training.BalanceFeatures on data, with a note of what it measured.
func (f *FeatureWeight) Resolve(data graphs.Source) (w float64, note string, err error) {
	if !f.Auto {
		return f.Weight, "", nil
	}
	b, err := training.BalanceFeatures(data)
	if err != nil {
		return 0, "", err
	}
	if b.Features == 0 {
		return b.Weight, "--feature-weight auto: the data has no varying node features; weight 1", nil
	}
	return b.Weight, fmt.Sprintf("--feature-weight auto: %.6g (mean structure cost %.4g, mean feature cost %.4g under independent couplings)", b.Weight, b.Structure, b.Features), nil
}
