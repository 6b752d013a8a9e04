package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/sirupsen/logrus"
)

// WithSignals returns a context cancelled on SIGINT or SIGTERM; a second signal aborts the
// process at once (exit status 130). Call stop when done.
func WithSignals(parent context.Context, log *logrus.Logger) (ctx context.Context, stop func()) {
	return WatchSignals(parent, log, func() { os.Exit(ExitInterrupted) })
}

// WatchSignals is WithSignals with the abort action given. The second signal is handled here
// rather than by restoring the default action: a process started with SIGINT ignored (a
// background job of a non-interactive shell, nohup) would go back to ignoring it, and an
// interrupt would never end a batch that does not end.
func WatchSignals(parent context.Context, log *logrus.Logger, abort func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	finished, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for n := 1; ; n++ {
			select {
			case s := <-sigs:
				if n == 1 {
					log.Warnf("interrupted (%v): stopping, keeping the work finished (interrupt again to abort at once)", s)
					cancel()
					continue
				}
				log.Errorf("interrupted again (%v): aborting; the output holds the last checkpoint", s)
				abort()
				return
			case <-finished:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(finished)
		<-done
		cancel()
	}
}
