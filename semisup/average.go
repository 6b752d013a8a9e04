package semisup

import (
	"math"

	"gorgonia.org/tensor"
)

// paramAverage is an exponential moving average of a model's parameters, updated after every
// optimizer step (Polyak averaging): a step moves it by rate × (parameters − average), so that
// it weighs the steps of about the last horizon epochs.
type paramAverage struct {
	rate   float64
	values [][]float64
	held   [][]float64 // the trained parameters while the average is swapped in
}

// newParamAverage starts an average of ps over about epochs epochs of stepsPerEpoch steps each,
// from their values now; nil when epochs is 0 (no averaging).
func newParamAverage(ps []*tensor.Dense, epochs float64, stepsPerEpoch int) *paramAverage {
	if !(epochs > 0) {
		return nil
	}
	return &paramAverage{rate: -math.Expm1(-1 / (epochs * float64(max(stepsPerEpoch, 1)))), values: snapshot(ps), held: snapshot(ps)}
}

// update moves the average towards the parameters' values after a step.
func (a *paramAverage) update(ps []*tensor.Dense) {
	if a == nil {
		return
	}
	for i, p := range ps {
		avg := a.values[i]
		for j, v := range p.Data().([]float64) {
			avg[j] += a.rate * (v - avg[j])
		}
	}
}

// swapIn writes the average into the parameters, keeping their trained values for swapOut.
func (a *paramAverage) swapIn(ps []*tensor.Dense) {
	if a == nil {
		return
	}
	for i, p := range ps {
		copy(a.held[i], p.Data().([]float64))
	}
	restore(ps, a.values)
}

// swapOut writes the trained values back.
func (a *paramAverage) swapOut(ps []*tensor.Dense) {
	if a == nil {
		return
	}
	restore(ps, a.held)
}
