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

// every is how often progress is logged during an epoch or a computation; barEvery how often
// the bar is redrawn on a terminal.
const (
	every    = 5 * time.Second
	barEvery = 200 * time.Millisecond
	barWidth = 24
)

// stepLog reports training.Progress: on a terminal as a bar redrawn on one line (a line per
// epoch is kept), otherwise as log lines at most every interval and always when an epoch (or a
// transform) completes. The ETA covers the whole command: with a "run" field "r/R" (cluster's
// runs), the runs still to come are counted at the projected length of the current one.
type stepLog struct {
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

// newStepLog returns a reporter logging msg with the given extra fields (nil for none).
func newStepLog(log *logrus.Logger, msg string, fields logrus.Fields) *stepLog {
	p := &stepLog{log: log, msg: msg, fields: fields, interval: every, now: time.Now}
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

// report logs a training step.
func (p *stepLog) report(pr training.Progress) {
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
func (p *stepLog) commandETA(pr training.Progress) time.Duration {
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
func (p *stepLog) drawBar(pr training.Progress, fitting bool, rate float64, eta time.Duration) {
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

// countLog returns a callback that logs the discrepancies (GWDs) done every interval, with
// rate and ETA, and at the end, as "computing" with the given extra fields (nil for none). A
// count that falls back, or a new total, starts a new computation: its rate and ETA start
// afresh.
func countLog(log logrus.FieldLogger, fields logrus.Fields) func(done, total int) {
	var start, last time.Time
	var startDone, lastDone, lastTotal int
	return func(done, total int) {
		now := time.Now()
		if start.IsZero() || done < lastDone || total != lastTotal {
			start, last, startDone, lastDone, lastTotal = now, now, done, done, total
			return
		}
		lastDone = done
		if done < total && now.Sub(last) < every {
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
		count := logrus.Fields{"gwds": fmt.Sprintf("%d/%d", done, total), "eta": eta}
		if done > startDone { // a count reported done at its first report has no rate
			count["gwds/s"] = fmt.Sprintf("%.0f", rate)
		}
		log.WithFields(fields).WithFields(count).Info("computing")
	}
}

// Observer returns a training.Observer that logs every event of long work on log: training
// steps as lines "step" with the epoch, graphs done, rate, loss and ETA (on a terminal, a bar
// redrawn on one line), counts of discrepancies as lines "computing" with rate and ETA, and
// messages at level info (warnings at warn). Every line has the given fields (nil for none)
// and, where runs > 1, the field run "r/R" of the event's run, by which the training ETA
// counts the runs still to come.
func Observer(log *logrus.Logger, step string, runs int, fields logrus.Fields) training.Observer {
	p := &runLog{log: log, step: step, runs: runs, fields: fields, stepRun: -1, countRun: -1}
	return func(e training.Event) {
		switch {
		case e.Step != nil:
			p.report(e.Run, *e.Step)
		case e.Message != "":
			l := log.WithFields(p.fieldsOf(e.Run))
			if e.Warning {
				l.Warn(e.Message)
			} else {
				l.Info(e.Message)
			}
		default:
			p.count(e.Run, e.Done, e.Total)
		}
	}
}

// runLog keeps a step and a count reporter for the run being observed.
type runLog struct {
	log    *logrus.Logger
	step   string
	runs   int
	fields logrus.Fields
	steps  *stepLog
	counts func(done, total int)
	// stepRun and countRun are the runs the reporters above belong to (-1: none yet).
	stepRun, countRun int
}

// fieldsOf are the fields of run r's lines (0-based r).
func (p *runLog) fieldsOf(r int) logrus.Fields {
	f := logrus.Fields{}
	if p.runs > 1 {
		f["run"] = fmt.Sprintf("%d/%d", r+1, p.runs)
	}
	for k, v := range p.fields {
		f[k] = v
	}
	return f
}

// report logs a training step of run r.
func (p *runLog) report(r int, pr training.Progress) {
	if r != p.stepRun {
		p.steps, p.stepRun = newStepLog(p.log, p.step, p.fieldsOf(r)), r
	}
	p.steps.report(pr)
}

// count logs the discrepancies done of run r.
func (p *runLog) count(r, done, total int) {
	if r != p.countRun {
		p.counts, p.countRun = countLog(p.log, p.fieldsOf(r)), r
	}
	p.counts(done, total)
}
