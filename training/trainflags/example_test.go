package trainflags_test

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/training/trainflags"
)

// A command of your own with gwf's training flags: the paper's settings unless a flag says
// otherwise.
func Example() {
	var f trainflags.Flags
	fs := pflag.NewFlagSet("mytool", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse([]string{"--atoms", "8", "--solver", "badmm"}); err != nil {
		fmt.Println(err)
		return
	}
	cfg, warnings, err := f.Config(fs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Atoms, cfg.Solver, cfg.Gamma, cfg.Epochs, len(warnings))
	// Output: 8 badmm 1 10 0
}
