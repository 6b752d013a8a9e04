package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/training"
)

func TestProgressThrottled(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	p := newProgress(log, "training", logrus.Fields{"run": "1/2"})
	now := time.Unix(0, 0)
	p.now = func() time.Time { return now }
	report := func(done int, dt time.Duration) {
		now = now.Add(dt)
		p.report(training.Progress{Epoch: 1, Epochs: 2, Done: done, Total: 100, Loss: 0.25, GraphsPerSec: 10, ETA: 15 * time.Second})
	}
	report(10, time.Second)    // first: logged
	report(20, time.Second)    // too soon
	report(30, 2*time.Second)  // too soon
	report(40, 3*time.Second)  // 6 s after the first: logged
	report(100, 1*time.Second) // end of epoch: logged
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), buf.String())
	}
	for _, want := range []string{"epoch=1/2", "graphs=100/100", "graphs/s=10.0", "loss=0.25", "eta=15s", "run=1/2"} {
		if !strings.Contains(lines[2], want) {
			t.Errorf("%q lacks %s", lines[2], want)
		}
	}
	if p.callback(true) != nil {
		t.Error("quiet progress has a callback")
	}
}
