package main

import (
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/training"
)

// progressEvery is how often progress is logged during an epoch.
const progressEvery = 5 * time.Second

// progress logs training.Progress reports at most every interval, and always when an epoch
// (or a transform) completes.
type progress struct {
	log      *logrus.Logger
	msg      string
	fields   logrus.Fields
	interval time.Duration
	start    time.Time
	last     time.Time
	now      func() time.Time
}

// newProgress returns a reporter logging msg with the given extra fields (nil for none).
func newProgress(log *logrus.Logger, msg string, fields logrus.Fields) *progress {
	return &progress{log: log, msg: msg, fields: fields, interval: progressEvery, now: time.Now}
}

// report is a training.Options.Progress callback.
func (p *progress) report(pr training.Progress) {
	now := p.now()
	first := p.start.IsZero()
	if first {
		p.start = now
	}
	// The first report gives an early rate estimate; then one per interval and every epoch end.
	if !first && pr.Done < pr.Total && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	rate, eta := pr.GraphsPerSec, pr.ETA
	fitting := rate != 0 // Transform reports counts only
	if !fitting && pr.Done > 0 {
		el := now.Sub(p.start).Seconds()
		if el > 0 {
			rate = float64(pr.Done) / el
			eta = time.Duration(float64(pr.Total-pr.Done) / rate * float64(time.Second))
		}
	}
	f := logrus.Fields{
		"graphs":   fmt.Sprintf("%d/%d", pr.Done, pr.Total),
		"graphs/s": fmt.Sprintf("%.1f", rate),
		"eta":      eta.Round(time.Second).String(),
	}
	if fitting {
		f["epoch"] = fmt.Sprintf("%d/%d", pr.Epoch, pr.Epochs)
		f["loss"] = fmt.Sprintf("%.6g", pr.Loss)
	}
	for k, v := range p.fields {
		f[k] = v
	}
	p.log.WithFields(f).Info(p.msg)
}

// callback returns p.report, or nil when quiet, for training.Options.Progress.
func (p *progress) callback(quiet bool) func(training.Progress) {
	if quiet {
		return nil
	}
	return p.report
}
