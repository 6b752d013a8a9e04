package cli

import (
	"slices"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Changed reports whether the flag name was set on the command line.
func Changed(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}

// FirstChanged is the first of names set on the command line, or "" if none is: the flag a
// refusal names where a group of flags does not apply.
func FirstChanged(fs *pflag.FlagSet, names ...string) string {
	for _, name := range names {
		if Changed(fs, name) {
			return name
		}
	}
	return ""
}

// renamedTo annotates a flag kept under its old name: the new name.
const renamedTo = "gwf-renamed-to"

// RenamedFlag registers old as a hidden alias of the flag now called name: scripts that use
// it keep working, with a warning in the log (WarnRenamed; cobra's own deprecation note goes
// to stdout, where it would corrupt an output), and --help shows only the new name.
func RenamedFlag(fs *pflag.FlagSet, name, old string) {
	f := fs.Lookup(name)
	fs.AddFlag(&pflag.Flag{Name: old, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue, Hidden: true,
		Annotations: map[string][]string{renamedTo: {name}}})
}

// WarnRenamed logs a warning for each old flag name given.
func WarnRenamed(fs *pflag.FlagSet, log logrus.FieldLogger) {
	fs.Visit(func(f *pflag.Flag) {
		if to := f.Annotations[renamedTo]; len(to) == 1 {
			log.Warnf("--%s is now --%s; the old name will go", f.Name, to[0])
		}
	})
}

// ResumeCommand is the command line that resumes an interrupted run of cmd: the flags given
// (but those named in drop), plus --resume.
func ResumeCommand(cmd *cobra.Command, drop ...string) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name == "resume" || slices.Contains(drop, fl.Name) {
			return
		}
		if fl.Value.Type() == "bool" {
			if fl.Value.String() == "true" {
				parts = append(parts, "--"+fl.Name)
			}
			return
		}
		parts = append(parts, "--"+fl.Name+"="+shellQuote(fl.Value.String()))
	})
	return strings.Join(append(parts, "--resume"), " ")
}

// shellQuote quotes s for a POSIX shell when it holds anything but safe characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
