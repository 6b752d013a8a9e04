package training

import (
	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// CostBalance compares the two terms of the fused GW cost over a dataset
// (pairwise.CostBalance).
type CostBalance = pairwise.CostBalance

// BalanceFeatures measures CostBalance on the graphs of src: Config.FeatureWeight =
// BalanceFeatures(src).Weight gives structure and features the same say at the start
// (pairwise.BalanceFeatures).
func BalanceFeatures(src graphs.Source) (CostBalance, error) { return pairwise.BalanceFeatures(src) }
