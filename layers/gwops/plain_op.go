package gwops

// plainOp gives the ops of this package the Gorgonia op properties they share: a value result
// (not a pointer), pure Go (no external call), no input overwritten.
type plainOp struct{}

func (plainOp) ReturnsPtr() bool     { return false }
func (plainOp) CallsExtern() bool    { return false }
func (plainOp) OverwritesInput() int { return -1 }
