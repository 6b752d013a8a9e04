package fgwsvm

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/svm"
)

// DefaultVote is the most candidates whose SVMs vote by default where every candidate's
// matrix is computed anyway (no screening; Settings.VoteFor). Choosing one candidate among
// thirty by a 5-fold estimate on a few hundred graphs picks a lucky one as often as a good
// one; a vote of the ten best keeps what they agree on (measured against the single best:
// docs/results/classification.md, "A vote of the best candidates").
const DefaultVote = 10

// DefaultScreenedVote is the number of voters by default where the candidates are screened
// (Settings.Screen): the best three of the screening, each computed in full once for all the
// folds (candidates already computed go first, see ScreenTolerance): each voter may cost one
// more matrix of all the graphs.
const DefaultScreenedVote = 3

// Vote is the choices whose SVMs vote, best validation accuracy first; a vote of one is the
// single best choice.
type Vote []Choice

func (v Vote) String() string {
	if len(v) == 1 {
		return v[0].String()
	}
	return fmt.Sprintf("a vote of %d candidates, the best %s", len(v), v[0])
}

// ranked is cs sorted by rank (the validation accuracy less any handicap), best first (ties
// keep their order), cut to the first n (all where n exceeds them, one where n < 1).
func ranked(cs []Choice, n int) Vote {
	return rankedPreferring(cs, n, func(int) bool { return false })
}

// rankedPreferring is ranked, except that a candidate done accepts goes ahead of one it does
// not whose rank is at most ScreenTolerance higher.
func rankedPreferring(cs []Choice, n int, done func(ci int) bool) Vote {
	return rankedPreferringWithin(cs, n, done, ScreenTolerance)
}

// rankedPreferringWithin is rankedPreferring with a tolerance of tol instead of
// ScreenTolerance.
func rankedPreferringWithin(cs []Choice, n int, done func(ci int) bool, tol float64) Vote {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b Choice) int {
		da, db := done(a.index), done(b.index)
		switch {
		case da == db:
			return cmp.Compare(b.rank(), a.rank())
		case da:
			if a.rank() >= b.rank()-tol {
				return -1
			}
			return 1
		default:
			if b.rank() >= a.rank()-tol {
				return 1
			}
			return -1
		}
	})
	return out[:min(max(n, 1), len(out))]
}

// cutVote is v (ranked, best first) less the choices that rank more than within standard
// errors of the first's inner estimate below it, √(p(1−p)/n) for its accuracy p on n graphs
// (with one right and one wrong guess added, so that a perfect score still has some spread);
// v itself where within is 0.
func cutVote(v Vote, within float64, n int) Vote {
	if within <= 0 || len(v) < 2 || n < 1 {
		return v
	}
	floor := v[0].rank() - within*standardError(v[0].Validation, n)
	k := 1
	for k < len(v) && v[k].rank() >= floor {
		k++
	}
	return v[:k]
}

// standardError is that of an accuracy estimate a on n graphs, √(p(1−p)/n), with one right
// and one wrong guess added to a (p), so that a perfect score still has some spread.
func standardError(a float64, n int) float64 {
	p := (a*float64(n) + 1) / float64(n+2)
	return math.Sqrt(p * (1 - p) / float64(n))
}

// voter is one choice, the matrix it reads and its trained SVM. A landmark voter reads land
// instead (d is nil), and its SVM weighs the landmarks (landmarks.go).
type voter struct {
	choice Choice
	d      *mat.SymDense
	svm    *svm.Model
	land   *landmarkRows
}

// fitVote trains each choice's SVM on the graphs idx.
func fitVote(v Vote, ds []*mat.SymDense, y, idx []int, classes int) ([]voter, error) {
	out := make([]voter, len(v))
	for k, ch := range v {
		m, err := fit(ds[k], ch, y, idx, classes)
		if err != nil {
			return nil, err
		}
		out[k] = voter{choice: ch, d: ds[k], svm: m}
	}
	return out, nil
}

// predictVote predicts the graphs rows by the voters' majority, from their discrepancies to
// the training graphs idx.
func predictVote(vs []voter, rows, idx []int, classes int) []int {
	preds := make([][]int, len(vs))
	for k, v := range vs {
		if v.land != nil {
			preds[k] = v.land.predict(v.choice, v.svm, rows)
			continue
		}
		preds[k] = predictRows(v.d, v.choice, v.svm, rows, idx)
	}
	return majority(preds, classes)
}

// majority is, for each item, the class most of preds (one prediction per voter, best voter
// first) give it; a tie goes to the class of the best voter among the tied.
func majority(preds [][]int, classes int) []int {
	if len(preds) == 0 {
		return nil
	}
	out := make([]int, len(preds[0]))
	count := make([]int, classes)
	for i := range out {
		clear(count)
		top := 0
		for _, p := range preds {
			count[p[i]]++
			top = max(top, count[p[i]])
		}
		for _, p := range preds {
			if count[p[i]] == top {
				out[i] = p[i]
				break
			}
		}
	}
	return out
}

// narrowFull returns the candidates the folds may choose from after a screening (each, every
// fold's last-round choices) where Settings.MaxFull caps the FGW candidates computed over all
// graphs and their voters would need more; nil where nothing is narrowed. Allowed are the
// vector candidates and those computed already (free), and up to the cap the FGW candidates
// that most folds screen first, then that most folds have among their voters, then that screen
// best on average over the folds where they are left.
func (m *matrices) narrowFull(each [][]Choice) map[int]bool {
	if m.maxFull <= 0 {
		return nil
	}
	free := func(ci int) bool { return m.full[ci] != nil || m.cands[ci].vector() }
	firsts, tops, sum, seen := map[int]int{}, map[int]int{}, map[int]float64{}, map[int]int{}
	need := map[int]bool{}
	for _, cs := range each {
		if len(cs) == 0 {
			continue
		}
		for k, c := range rankedPreferring(cs, m.vote, free) {
			if k == 0 {
				firsts[c.index]++
			}
			tops[c.index]++
			if !free(c.index) {
				need[c.index] = true
			}
		}
		for _, c := range cs {
			sum[c.index] += c.rank()
			seen[c.index]++
		}
	}
	if len(need) <= m.maxFull {
		return nil
	}
	order := make([]int, 0, len(seen))
	for ci := range seen {
		order = append(order, ci)
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(firsts[b], firsts[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(tops[b], tops[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(sum[b]/float64(seen[b]), sum[a]/float64(seen[a])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	allowed, costly := map[int]bool{}, 0
	for _, ci := range order {
		switch {
		case free(ci):
			allowed[ci] = true
		case costly < m.maxFull:
			allowed[ci] = true
			costly++
		}
	}
	return allowed
}
