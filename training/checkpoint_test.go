package training

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
)

// TestFitFileKeepsWhatTraining: the file holds the model after each epoch and at the batch
// boundary where an interrupt stopped it; continued from that file, training ends with the
// uninterrupted run's model, bit for bit.
func TestFitFileKeepsWhatTraining(t *testing.T) {
	data := mutag(t, 12)
	cfg := smallConfig()
	cfg.Epochs, cfg.Batch = 2, 4
	whole, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.model")
	if err := whole.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := FitFile(context.Background(), whole, graphs.Slice(data), path, Options{}); err != nil {
		t.Fatal(err)
	}
	if onDisk, err := Load(path); err != nil || !sameModel(onDisk, whole) || len(onDisk.History) != 2 {
		t.Fatalf("the file after training: %v", err)
	}

	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := 0
	saved, err := FitFile(ctx, m, graphs.Slice(data), path, Options{Observe: func(Event) {
		if batches++; batches == 4 { // the first batch of epoch 2
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || saved != (Position{Epochs: 1, Done: 4}) {
		t.Fatalf("interrupted: %v, the file at %+v", err, saved)
	}
	if got := saved.Describe(cfg.Epochs, len(data)); got != "after 1 of 2 epochs and 4 of 12 graphs of epoch 2" {
		t.Errorf("Describe: %q", got)
	}
	m, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if PositionOf(m) != saved {
		t.Fatalf("the file is at %+v, FitFile said %+v", PositionOf(m), saved)
	}
	if _, err := FitFile(context.Background(), m, graphs.Slice(data), path, Options{}); err != nil {
		t.Fatal(err)
	}
	if !sameModel(m, whole) {
		t.Error("continued from the interrupted file: not the uninterrupted run's model")
	}
}

// TestFitFileFailedSave: a checkpoint that fails reports the position of the file, not that of
// the model in memory.
func TestFitFileFailedSave(t *testing.T) {
	data := mutag(t, 8)
	cfg := smallConfig()
	cfg.Epochs, cfg.Batch = 3, 8
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	saved, err := FitFile(context.Background(), m, graphs.Slice(data), path, Options{EpochDone: func(m *Model) error {
		if len(m.History) == 1 { // the next save meets a folder
			if err := os.Remove(path); err != nil {
				return err
			}
			return os.Mkdir(path, 0o755)
		}
		return nil
	}})
	if err == nil || !strings.Contains(err.Error(), "checkpoint") || len(m.History) != 2 || saved != (Position{Epochs: 1}) {
		t.Fatalf("a failed checkpoint after epoch 2: %v; %d epochs in memory, the file at %+v", err, len(m.History), saved)
	}
}
