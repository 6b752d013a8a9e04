package dataflags

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
)

// LimitFlags are --max-nodes and --max-memory, the reader limits every command that reads
// graphs takes (Flags embeds them; 'gwf gw', which reads two files, takes them alone).
type LimitFlags struct {
	MaxNodes  int
	MaxMemory float64 // GiB
}

// DefaultLimitFlags are the flags' defaults: graphs.DefaultLimits.
func DefaultLimitFlags() LimitFlags {
	d := graphs.DefaultLimits()
	return LimitFlags{MaxNodes: d.MaxNodes, MaxMemory: float64(d.MaxDenseBytes) / (1 << 30)}
}

// Register adds --max-nodes and --max-memory to fs, memory the usage of --max-memory (what
// its GiB bound).
func (l *LimitFlags) Register(fs *pflag.FlagSet, memory string) {
	def := DefaultLimitFlags()
	fs.IntVar(&l.MaxNodes, "max-nodes", def.MaxNodes, "refuse graphs with more nodes than this")
	fs.Float64Var(&l.MaxMemory, "max-memory", def.MaxMemory, memory)
}

// Check refuses limits that allow nothing or overflow.
func (l *LimitFlags) Check() error {
	switch {
	case l.MaxNodes < 1:
		return fmt.Errorf("--max-nodes = %d must be at least 1", l.MaxNodes)
	case !(l.MaxMemory > 0) || l.MaxMemory > 1<<20:
		return fmt.Errorf("--max-memory = %v GiB must be positive (and at most 2^20)", l.MaxMemory)
	}
	return nil
}

// Limits are the reader limits of the flags. The byte count is rounded up, so that any
// positive --max-memory is a limit of at least one byte (zero would mean the default).
func (l *LimitFlags) Limits() graphs.Limits {
	return graphs.Limits{MaxNodes: l.MaxNodes, MaxDenseBytes: graphs.BytesOfGiB(l.MaxMemory)}
}
