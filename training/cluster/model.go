package cluster

import (
	"fmt"

	"github.com/gwf-graphs/gwf/training"
)

// DefaultEmbedding is what the paper's experiment clusters: λ = softmax(z), chosen on a
// principled argument, not on labels. The model and its loss see z only through softmax, which
// is invariant to z + c·1, so the component of z along 1 is unidentified: Adam's
// per-coordinate scaling moves it in ways the loss never sees, and Euclidean K-means on z would
// count that noise. λ is the identifiable representation the model uses (the barycenter
// weights).
const DefaultEmbedding = training.EmbeddingLambda

// Model clusters the graphs a GWF model was trained on into opt.K groups: K-means on the
// rows of embedding e of m.Z (DefaultEmbedding in the paper's protocol). It is the step from a
// trained model to Table 1's clusters; score them with Evaluate.
func Model(m *training.Model, e training.Embedding, opt KMeansOptions) (Result, error) {
	if m == nil || m.Z == nil {
		return Result{}, fmt.Errorf("cluster: the model has no embeddings")
	}
	if _, err := training.ParseEmbedding(string(e)); err != nil {
		return Result{}, fmt.Errorf("cluster: %w", err)
	}
	res, err := KMeans(e.Rows(m.Z), opt)
	if err != nil {
		return Result{}, fmt.Errorf("cluster: %s of the model: %w", e, err)
	}
	return res, nil
}
