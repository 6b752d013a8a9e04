package progresslog

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
	p := newStepLog(log, "training", logrus.Fields{"run": "1/2"})
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
	// Run 1 of 2: 15 s left of this run, and a second run as long as this one (0 s elapsed + 15 s).
	for _, want := range []string{"epoch=1/2", "graphs=100/100", "graphs/s=10.0", "loss=0.25", "eta=30s", "run=1/2"} {
		if !strings.Contains(lines[2], want) {
			t.Errorf("%q lacks %s", lines[2], want)
		}
	}
}

// TestProgressCommandETA: with a run field "r/R", the ETA counts the runs still to come.
func TestProgressCommandETA(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	p := newStepLog(log, "training", logrus.Fields{"run": "1/3"})
	// 10 s into run 1 of 3 with 30 s to go: this run takes 40 s, two more follow: 30 + 80 s.
	p.report(training.Progress{Epoch: 1, Epochs: 4, Done: 5, Total: 10, GraphsPerSec: 1, Elapsed: 10 * time.Second, ETA: 30 * time.Second})
	if !strings.Contains(buf.String(), "eta=1m50s") {
		t.Errorf("log %q lacks eta=1m50s", buf.String())
	}
}

// TestProgressBar: on a terminal the bar redraws one line, and an epoch's end keeps it.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := newStepLog(logrus.New(), "training", logrus.Fields{"run": "2/2"})
	p.bar = &buf
	p.report(training.Progress{Epoch: 1, Epochs: 2, Done: 50, Total: 100, Loss: 0.5, GraphsPerSec: 10, ETA: 15 * time.Second})
	p.report(training.Progress{Epoch: 1, Epochs: 2, Done: 100, Total: 100, Loss: 0.25, GraphsPerSec: 10, ETA: 10 * time.Second})
	out := buf.String()
	if strings.Count(out, "\r\033[K") != 2 || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("bar output %q: want two redraws and one line end", out)
	}
	for _, want := range []string{"run 2/2 epoch 1/2 [============            ] 50/100", "[========================] 100/100", "loss 0.25", "eta 10s"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output %q lacks %q", out, want)
		}
	}
	if isTerminal(&buf) {
		t.Error("a buffer counted as a terminal")
	}
}

// TestCountsETA: a computation that ends before any rate is measured logs an ETA of 0,
// not the negative duration of 0/0, and no rate (not a rate of 0).
func TestCountsETA(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	p := countLog(log, nil)
	p(276, 276)
	p(276, 276)
	if out := buf.String(); !strings.Contains(out, "eta=0s") || strings.Contains(out, "eta=-") || strings.Contains(out, "gwds/s") {
		t.Errorf("log %q, want eta=0s and no rate", out)
	}
}

// TestObserver: each run's lines carry its run field, the training ETA counts the runs to
// come, counts and messages are logged, warnings at warn.
func TestObserver(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	o := Observer(log, "training", 2, logrus.Fields{"method": "gwf"})
	o.InRun(0).Step(training.Progress{Epoch: 1, Epochs: 1, Done: 10, Total: 10, GraphsPerSec: 1, Elapsed: 10 * time.Second})
	o.InRun(1).Count(5, 5)
	o.InRun(1).Count(5, 5)
	o.InRun(1).Say(true, "skipped %d", 1)
	out := buf.String()
	for _, want := range []string{"run=1/2", "eta=10s", "method=gwf", "run=2/2", "gwds=5/5", "level=warning msg=\"skipped 1\""} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %s", out, want)
		}
	}
	buf.Reset()
	Observer(log, "embedding", 1, nil).Count(3, 3)
	Observer(log, "embedding", 1, nil).Count(3, 3)
	if strings.Contains(buf.String(), "run=") {
		t.Errorf("one run's lines %q carry a run field", buf.String())
	}
}
