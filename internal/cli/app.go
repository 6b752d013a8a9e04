package cli

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"
)

// App is what the commands of one command tree share: the logger, the persistent flags
// (--log-level, --quiet, --cpuprofile) and the signal watch of the command running. Each tree
// (and each test) has its own.
type App struct {
	Log         *logrus.Logger
	logLevel    string
	quiet       bool         // --quiet: no progress, warnings and errors only
	cpuProfile  string       // --cpuprofile path, or ""
	stopProfile func() error // set while a CPU profile is being written
	signals     signalWatch  // set while an interruptible command runs
}

// signalWatch is the signal watching of an interruptible command (see Interruptible).
type signalWatch struct {
	ctx  context.Context // cancelled by the first SIGINT or SIGTERM
	stop func()
	lost string // what the message of an interrupted run says is not written
}

// interruptibleKey annotates a command whose work stops at an interrupt: the value says what
// is then not written ("nothing written").
const interruptibleKey = "cli-interruptible"

// Interruptible annotates a command whose work watches SIGINT and SIGTERM through
// cmd.Context(): the first signal cancels it, a second aborts at once (WithSignals). A runtime
// error returned after an interrupt becomes "interrupted: "+lost (exit status 130), unless the
// command says more itself (an InterruptedError). Commands without it end at the first signal.
func Interruptible(lost string) map[string]string {
	return map[string]string{interruptibleKey: lost}
}

// NewApp returns an App logging at info level.
func NewApp() *App { return &App{Log: logrus.New(), logLevel: "info"} }

// Attach registers the persistent flags on root and sets its PersistentPreRunE, which applies
// them (log level and output, renamed-flag warnings, the CPU profile) and starts the signal
// watch of an Interruptible command.
func (a *App) Attach(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&a.logLevel, "log-level", a.logLevel, "log level: error, warn, info, debug or trace (progress is logged at info)")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "log no progress, only warnings and errors (--log-level overrides it)")
	pf.StringVar(&a.cpuProfile, "cpuprofile", "", "write a CPU profile (for 'go tool pprof') to this file")
	root.SetFlagErrorFunc(FlagError)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		lvl, err := logrus.ParseLevel(a.logLevel)
		if err != nil {
			return Usagef("--log-level: %q is not one of panic, fatal, error, warn, info, debug, trace", a.logLevel)
		}
		if a.quiet && !Changed(cmd.Flags(), "log-level") {
			lvl = logrus.WarnLevel
		}
		a.Log.SetLevel(lvl)
		a.Log.SetOutput(cmd.ErrOrStderr())
		WarnRenamed(cmd.Flags(), a.Log)
		if a.cpuProfile != "" {
			if a.stopProfile, err = StartCPUProfile(a.cpuProfile); err != nil {
				return err
			}
		}
		if lost, ok := cmd.Annotations[interruptibleKey]; ok {
			ctx, stop := WithSignals(cmd.Context(), a.Log)
			a.signals = signalWatch{ctx: ctx, stop: stop, lost: lost}
			cmd.SetContext(ctx)
		}
		return nil
	}
}

// finish ends what the persistent flags started (the signal watch, the CPU profile) and says
// when err came from an interrupt; it runs after every command, failed ones included.
func (a *App) finish(err error) error {
	if w := a.signals; w.stop != nil {
		if err != nil && w.ctx.Err() != nil && !IsInterrupted(err) && !IsUsage(err) { // before stop cancels it
			err = Interrupted("interrupted: " + w.lost)
		}
		w.stop()
		a.signals = signalWatch{}
	}
	if a.stopProfile == nil {
		return err
	}
	perr := a.stopProfile()
	a.stopProfile = nil
	if err == nil {
		err = perr
	}
	return err
}

// Execute runs root on args and returns the exit status, printing errors as "NAME: message"
// on stderr (NAME: root's). explain, if set, gives an error a hint printed below it and may
// count it as a usage error (exit status 2). A panic is reported as an internal error.
func (a *App) Execute(ctx context.Context, root *cobra.Command, args []string, stdout, stderr io.Writer, explain func(error) (hint string, usage bool)) (code int) {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	defer func() {
		// A safety net: bad input must never end in a crash dump.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: internal error: %v\n%s", root.Name(), r, debug.Stack())
			code = ExitError
		}
	}()
	cmd, err := root.ExecuteContextC(ctx)
	if err = a.finish(err); err == nil {
		return ExitOK
	}
	fmt.Fprintf(stderr, "%s: %v\n", root.Name(), err)
	usage := IsUsage(err)
	if explain != nil {
		hint, u := explain(err)
		if hint != "" {
			fmt.Fprintln(stderr, hint)
		}
		usage = usage || u
	}
	switch {
	case usage:
		if cmd != nil && IsUsage(err) {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
		return ExitUsage
	case IsInterrupted(err):
		return ExitInterrupted
	}
	return ExitError
}
