//go:build unix

package cli

import (
	"context"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

// TestWatchSignals: the first signal cancels the context and is logged, the second aborts.
func TestWatchSignals(t *testing.T) {
	log, hook := test.NewNullLogger()
	log.SetOutput(io.Discard)
	aborted := make(chan struct{})
	ctx, stop := WatchSignals(context.Background(), log, func() { close(aborted) })
	defer stop()
	for i := 0; i < 2; i++ {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the first SIGINT did not cancel the context")
			}
		}
	}
	select {
	case <-aborted:
	case <-time.After(10 * time.Second):
		t.Fatal("the second SIGINT did not abort")
	}
	var levels []logrus.Level
	for _, e := range hook.AllEntries() {
		levels = append(levels, e.Level)
	}
	if len(levels) != 2 || levels[0] != logrus.WarnLevel || levels[1] != logrus.ErrorLevel {
		t.Errorf("logged %v, want a warning then an error", levels)
	}
}
