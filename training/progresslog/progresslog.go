package progresslog

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/training"
)

// Every is how often progress is logged during an epoch or a computation; barEvery how often
// the bar is redrawn on a terminal.
const (
	Every    = 5 * time.Second
	barEvery = 200 * time.Millisecond
	barWidth = 24
)

// Training reports training.Progress: on a terminal as a bar redrawn on one line (a line per
// epoch is kept), otherwise as log lines at most every interval and always when an epoch (or a
// transform) completes. The ETA covers the whole command: with a "run" field "r/R" (cluster's
// runs), the runs still to come are counted at the projected length of the current one.
type Training struct {
	log      *logrus.Logger
	msg      string
	fields   logrus.Fields
	interval time.Duration
	start    time.Time
	last     time.Time
	now      func() time.Time
	// bar is the terminal the bar is drawn on, nil for log lines.
	bar io.Writer
}

// New returns a reporter logging msg with the given extra fields (nil for none).
func New(log *logrus.Logger, msg string, fields logrus.Fields) *Training {
	p := &Training{log: log, msg: msg, fields: fields, interval: Every, now: time.Now}
	if isTerminal(log.Out) && log.IsLevelEnabled(logrus.InfoLevel) {
		p.bar, p.interval = log.Out, barEvery
	}
	return p
}

// isTerminal reports whether w is a terminal that can redraw a line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Report is a training.Options.Progress callback.
func (p *Training) Report(pr training.Progress) {
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
	if fitting {
		eta = p.commandETA(pr)
	}
	if p.bar != nil {
		p.drawBar(pr, fitting, rate, eta)
		return
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

// commandETA extends the run's ETA by the runs still to come after this one (fields "run"
// = "r/R"), each as long as this run's elapsed time plus its ETA.
func (p *Training) commandETA(pr training.Progress) time.Duration {
	run, ok := p.fields["run"].(string)
	if !ok {
		return pr.ETA
	}
	r, total, ok := strings.Cut(run, "/")
	ri, err1 := strconv.Atoi(r)
	ti, err2 := strconv.Atoi(total)
	if !ok || err1 != nil || err2 != nil || ti <= ri {
		return pr.ETA
	}
	return pr.ETA + time.Duration(ti-ri)*(pr.Elapsed+pr.ETA)
}

// drawBar redraws the progress line; an epoch's (or the transform's) last report ends it, so
// the epoch stays on screen.
func (p *Training) drawBar(pr training.Progress, fitting bool, rate float64, eta time.Duration) {
	frac := 0.0
	if pr.Total > 0 {
		frac = float64(pr.Done) / float64(pr.Total)
	}
	fill := int(frac * barWidth)
	var b strings.Builder
	b.WriteString("\r\033[K")
	b.WriteString(p.msg)
	if run, ok := p.fields["run"]; ok {
		fmt.Fprintf(&b, " run %v", run)
	}
	if fitting {
		fmt.Fprintf(&b, " epoch %d/%d", pr.Epoch, pr.Epochs)
	}
	fmt.Fprintf(&b, " [%s%s] %d/%d  %.1f graphs/s", strings.Repeat("=", fill), strings.Repeat(" ", barWidth-fill), pr.Done, pr.Total, rate)
	if fitting {
		fmt.Fprintf(&b, "  loss %.6g", pr.Loss)
	}
	fmt.Fprintf(&b, "  eta %s", eta.Round(time.Second))
	if pr.Done >= pr.Total {
		b.WriteByte('\n')
	}
	io.WriteString(p.bar, b.String()) // a failed terminal write is not worth stopping training for
}

// Callback returns p.Report, or nil when quiet, for training.Options.Progress.
func (p *Training) Callback(quiet bool) func(training.Progress) {
	if quiet {
		return nil
	}
	return p.Report
}

// Counts returns a callback that logs the discrepancies (GWDs) done every Every, with rate and
// ETA, and at the end, as "computing" with the given extra fields (nil for none). A count that
// falls back, or a new total, starts a new computation: its rate and ETA start afresh.
func Counts(log logrus.FieldLogger, fields logrus.Fields) func(done, total int) {
	var start, last time.Time
	var startDone, lastDone, lastTotal int
	return func(done, total int) {
		now := time.Now()
		if start.IsZero() || done < lastDone || total != lastTotal {
			start, last, startDone, lastDone, lastTotal = now, now, done, done, total
			return
		}
		lastDone = done
		if done < total && now.Sub(last) < Every {
			return
		}
		last = now
		rate := float64(done-startDone) / now.Sub(start).Seconds()
		eta := "unknown" // nothing done since the first report: no rate yet
		switch {
		case done >= total:
			eta = "0s"
		case rate > 0 && !math.IsInf(rate, 0):
			eta = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
		}
		log.WithFields(fields).WithFields(logrus.Fields{
			"gwds": fmt.Sprintf("%d/%d", done, total), "gwds/s": fmt.Sprintf("%.0f", rate), "eta": eta,
		}).Info("computing")
	}
}

// Runs logs the progress of work done in runs (the seeds of a clustering experiment: package
// training/experiment's Options.Progress and GWDProgress), each line with the field run
// "r/R" — which the training ETA extends by the runs still to come — and the given fields.
type Runs struct {
	log    *logrus.Logger
	runs   int
	fields logrus.Fields
	train  *Training
	count  func(done, total int)
	// trainRun and countRun are the runs the reporters above belong to (-1: none yet).
	trainRun, countRun int
}

// NewRuns returns a logger of runs runs' progress with the given extra fields (nil for none).
func NewRuns(log *logrus.Logger, runs int, fields logrus.Fields) *Runs {
	return &Runs{log: log, runs: runs, fields: fields, trainRun: -1, countRun: -1}
}

// Fields are the fields of run r's lines (0-based r).
func (p *Runs) Fields(r int) logrus.Fields {
	f := logrus.Fields{"run": fmt.Sprintf("%d/%d", r+1, p.runs)}
	for k, v := range p.fields {
		f[k] = v
	}
	return f
}

// Training reports a training step of run r.
func (p *Runs) Training(r int, pr training.Progress) {
	if r != p.trainRun {
		p.train, p.trainRun = New(p.log, "training", p.Fields(r)), r
	}
	p.train.Report(pr)
}

// Counts reports the discrepancies done of run r.
func (p *Runs) Counts(r, done, total int) {
	if r != p.countRun {
		p.count, p.countRun = Counts(p.log, p.Fields(r)), r
	}
	p.count(done, total)
}
