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
const classifyBudgetHelp = `--budget 30m plans the run to fit 30 minutes and stops it there: a probe of a few hundred
discrepancies (no label read) measures the machine, and where the settings do not fit it takes
the most landmarks that do down to 100, then a smaller screening, then fewer landmarks (down
to 20), then fewer FGW candidates.
The plan and one ETA for the whole run are logged before the work starts, and the report keeps
the plan, its estimate and the seconds taken. The plan depends on the machine's speed (pin it
with --landmarks and --screen); --output-dir keeps it, and a rerun there takes it again. Where
the estimate was short the run stops at the budget with an error that says what was done;
with --output-dir the same command continues.`

// budgetReportMargin is the time the budget keeps for what follows the classifier's work
// (the report, the predictions): a hundredth of it, from 0.5 to 10 s.
func budgetReportMargin(b time.Duration) time.Duration {
	return min(10*time.Second, max(500*time.Millisecond, b/100))
}

func registerBudget(fs *pflag.FlagSet, b *time.Duration) {
	fs.DurationVar(b, "budget", 0, fmt.Sprintf("plan the run to fit this time (30m, 2h; at least %s) and stop it there: fewer voters and a smaller screening on the full kernel, then landmarks, then a smaller screening, then fewer candidates, where the settings do not fit (0: no budget)", fgwsvm.MinBudget+time.Second))
}

// checkBudgetFlag refuses a negative budget and one too small to plan in.
func checkBudgetFlag(b time.Duration) error {
	if b < 0 || (b > 0 && b < fgwsvm.MinBudget+time.Second) {
		return cli.Usagef("--budget = %s: give 0 (no budget) or at least %s", b, fgwsvm.MinBudget+time.Second)
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
