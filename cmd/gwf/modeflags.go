package main

import "github.com/spf13/pflag"

// modeOf annotates a flag with the mode of its command it belongs to.
const modeOf = "gwf-mode"

// inMode marks the flags that register adds to fs, but those named in keep, as flags of one
// mode of the command (refuseOtherModes): 'gwf cluster' trains models, or with --model
// clusters under a trained one, and the flags of each mean nothing in the other.
func inMode(fs *pflag.FlagSet, mode string, register func(), keep ...string) {
	before := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
	register()
	kept := map[string]bool{}
	for _, k := range keep {
		kept[k] = true
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if !before[f.Name] && !kept[f.Name] {
			_ = fs.SetAnnotation(f.Name, modeOf, []string{mode})
		}
	})
}

// refuseOtherModes returns a usage error for the first flag given that belongs to a mode
// other than active.
func refuseOtherModes(fs *pflag.FlagSet, active string) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if m := f.Annotations[modeOf]; err == nil && len(m) == 1 && m[0] != active {
			err = usagef("--%s is a setting of %s, not of %s", f.Name, m[0], active)
		}
	})
	return err
}
