package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// classifyBudgetHelp is the paragraph of 'gwf classify --help' on --budget.
const classifyBudgetHelp = `--budget 30m plans the run to fit 30 minutes and stops it there: a probe of about a
thousand discrepancies (no label read) measures the machine, and where the settings do not fit
it keeps the full kernel with fewer voters, then a smaller screening, then takes the most
landmarks that fit down to 100, then a smaller screening, then fewer landmarks (down to 20),
then fewer FGW candidates.
The plan and one ETA for the whole run are logged before the work starts, and the report keeps
the plan, its estimate and the seconds taken. The plan depends on the machine's speed (pin it
with --landmarks, --screen and --vote); --output-dir keeps it, and a rerun there takes it
again. Where the estimate was short the run stops at the budget with an error that says what
was done; with --output-dir the same command continues.
Without --budget a run is given 1.5 s a graph, from 5 minutes to an hour (the log says how
much): ENZYMES' 600 graphs 15 minutes, NCI1's 4,110 an hour. --budget 0 runs the settings as
given, however long they take.`

// budgetReportMargin is the time the budget keeps for what follows the classifier's work
// (the report, the predictions): a hundredth of it, from 0.5 to 10 s.
func budgetReportMargin(b time.Duration) time.Duration {
	return min(10*time.Second, max(500*time.Millisecond, b/100))
}

// budgetFlag is --budget: a time, 0 (none), or auto, fgwsvm.DefaultBudget of the graphs read.
type budgetFlag struct {
	auto bool
	d    time.Duration
	// used is the budget the run was given, once the graphs are read.
	used time.Duration
}

func (b *budgetFlag) String() string {
	if b.auto {
		return "auto"
	}
	return b.d.String()
}

func (b *budgetFlag) Set(s string) error {
	if s == "auto" {
		b.auto, b.d = true, 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want a time such as 30m or 2h, 0 (no budget) or auto")
	}
	b.auto, b.d = false, d
	return nil
}

func (b *budgetFlag) Type() string { return "duration|auto" }

// resolve sets b.used to the budget of a run on n graphs and returns it.
func (b *budgetFlag) resolve(n int) time.Duration {
	b.used = b.d
	if b.auto {
		b.used = fgwsvm.DefaultBudget(n)
	}
	return b.used
}

func registerBudget(fs *pflag.FlagSet, b *budgetFlag) {
	*b = budgetFlag{auto: true}
	fs.Var(b, "budget", fmt.Sprintf("plan the run to fit this time (30m, 2h; at least %s) and stop it there: fewer voters and a smaller screening on the full kernel, then landmarks, then a smaller screening, then fewer candidates, where the settings do not fit; auto: %s a graph, from %s to %s; 0: no budget", fgwsvm.MinBudget+time.Second, fgwsvm.DefaultBudgetPerGraph, fgwsvm.DefaultBudgetMin, fgwsvm.DefaultBudgetMax))
}

// checkBudgetFlag refuses a negative budget and one too small to plan in.
func checkBudgetFlag(f budgetFlag) error {
	if b := f.d; !f.auto && (b < 0 || (b > 0 && b < fgwsvm.MinBudget+time.Second)) {
		return cli.Usagef("--budget = %s: give 0 (no budget), auto or at least %s", b, fgwsvm.MinBudget+time.Second)
	}
	return nil
}

// budgetLeft is what the classifier may spend of budget b, given since start: b less the time
// already taken (reading the data) and budgetReportMargin. 0 where b is.
func budgetLeft(b time.Duration, start time.Time) (time.Duration, error) {
	if b == 0 {
		return 0, nil
	}
	left := b - time.Since(start) - budgetReportMargin(b)
	if left < fgwsvm.MinBudget {
		return 0, fmt.Errorf("--budget %s: %s of it went to reading the data, too little is left for the classifier", b, time.Since(start).Round(time.Millisecond))
	}
	return left, nil
}

// explainBudget adds to an error of the budget what the user can do.
func explainBudget(err error, b time.Duration) error {
	var be *fgwsvm.BudgetError
	switch {
	case errors.As(err, &be):
		hint := "a larger --budget, or --output-dir to keep the work for a rerun"
		if be.Dir != "" {
			hint = "the same command continues from there, under the same plan (kept there too); a larger --budget gives it more time"
		}
		return fmt.Errorf("--budget %s: %w; %s", b, err, hint)
	case errors.Is(err, fgwsvm.ErrBudgetTooSmall):
		return fmt.Errorf("--budget %s: %w (narrow the candidates: --compare, --structure, --wl, --feature-weight; or give more time)", b, err)
	}
	return err
}
