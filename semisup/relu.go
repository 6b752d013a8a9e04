package semisup

import (
	"sync"

	"gorgonia.org/gorgonia"
)

// rectifyMu serialises calls to gorgonia.Rectify: it numbers its node group
// from a package-level counter in Gorgonia (internal/encoding.groupIndex)
// with no lock, so two models built at once (an ensemble's members, or a
// user's own goroutines) race on it. The lock guards Gorgonia's global, not
// state of ours, and costs nothing next to the graph it is part of.
var rectifyMu sync.Mutex

// relu is gorgonia.Rectify, safe to call from several goroutines.
func relu(x *gorgonia.Node) (*gorgonia.Node, error) {
	rectifyMu.Lock()
	defer rectifyMu.Unlock()
	return gorgonia.Rectify(x)
}
