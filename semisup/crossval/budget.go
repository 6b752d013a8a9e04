package crossval

import (
	"fmt"

	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// planned are the settings a run under a budget ran (the plan's landmarks, screening and
// candidates, its vote on n graphs), or set where it had no budget: what a report says was run.
func planned(set fgwsvm.Settings, st fgwsvm.Stats, n int) fgwsvm.Settings {
	if st.Budget == nil {
		return set
	}
	out := st.Budget.Apply(set)
	if set.Vote == 0 || set.Vote > len(out.Candidates) {
		out.Vote = 0
		out.Vote = out.VoteFor(n)
	}
	return out
}

// describeBudget says a budget's plan, its estimate and the time the run took.
func describeBudget(p fgwsvm.Plan) string {
	return fmt.Sprintf("budget %.0f s: plan %s, estimated %.0f s, took %.0f s", p.Budget, p, p.EstimateSeconds, p.Seconds)
}
