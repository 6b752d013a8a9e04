package experiment

import "github.com/gwf-graphs/gwf/semisup/fgwsvm"

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
