//go:build unix

package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
)

// syncBuffer is a bytes.Buffer safe for one writer goroutine and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestWithSignals: SIGINT cancels the context (and is logged) instead of killing the process.
func TestWithSignals(t *testing.T) {
	var buf syncBuffer
	log := logrus.New()
	log.SetOutput(&buf)
	ctx, stop := withSignals(context.Background(), log)
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "interrupted") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(buf.String(), "stopping after the graphs being computed") {
		t.Errorf("log: %q", buf.String())
	}
}
