package training

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckModelSize: the estimate counts the atoms and one K-vector per graph four times, and
// a model beyond the dense-memory limit is refused with ErrModelTooLarge before anything is
// allocated (here: 200,000 graphs × 1,000 atoms).
func TestCheckModelSize(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Atoms = 2
	if got, want := ModelBytes(cfg, 1, 10, []int{3, 4}), 32.0*(9+3+16+4+10*2); got != want {
		t.Errorf("ModelBytes = %v, want %v", got, want)
	}
	if err := CheckModelSize(cfg, 1, 10, []int{3, 4}); err != nil {
		t.Errorf("a small model: %v", err)
	}
	cfg.Atoms = 1000
	sizes := make([]int, cfg.Atoms)
	for i := range sizes {
		sizes[i] = 10
	}
	err := CheckModelSize(cfg, 0, 200000, sizes)
	if !errors.Is(err, ErrModelTooLarge) || !strings.Contains(err.Error(), "GiB") {
		t.Errorf("200,000 graphs × 1,000 atoms: %v", err)
	}
}
