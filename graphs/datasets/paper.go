package datasets

import "github.com/gwf-graphs/gwf/graphs"

// Features say how an experiment prepares a dataset's node features.
type Features struct {
	// Kind is what graphs.ReadTU reads into Graph.F.
	Kind graphs.FeatureKind
	// Standardize rescales every feature dimension to mean 0 and std 1 over the graphs kept
	// (collection.Spec.Standardize).
	Standardize bool
	// Balance weighs the features against the structure with training.BalanceFeatures (gwf's
	// --feature-weight auto) instead of the weight 1.
	Balance bool
}

// PaperFeatures are the node features with which the experiments of the GWF paper learn the
// bundled dataset name (matched as Load matches it). The paper says that "the graphs in AIDS,
// PROTEIN, and PROTEIN-F ... are with node attributes" (4, 1 and 29 dimensions) and that
// IMDB-B merely contains topological information; MUTAG is not in the paper and is learned
// from its structure too. The paper does not say how it scaled the attributes: the fused cost
// adds squared feature distances to the structure term, so raw attributes in arbitrary units
// (AIDS's atom codes and drawing coordinates, PROTEINS_full's values up to 400) would decide
// the model, and even standardized, PROTEINS_full's 29 dimensions cost 140 times the
// structure. Hence standardized and balanced.
func PaperFeatures(name string) (Features, error) {
	canon, err := resolve(name)
	if err != nil {
		return Features{}, err
	}
	switch canon {
	case "AIDS", "PROTEINS", "PROTEINS_full":
		return Features{Kind: graphs.FeaturesAttributes, Standardize: true, Balance: true}, nil
	}
	return Features{Kind: graphs.FeaturesNone}, nil
}
