package main

import (
	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/trainflags"
)

// trainFlags are the training flags (training/trainflags) as the commands use them: their
// errors are usage errors, their warnings and notes are logged.
type trainFlags struct {
	trainflags.Flags
}

func (t *trainFlags) register(fs *pflag.FlagSet) { t.Register(fs) }

// configLogged is the configuration the flags give a new model.
func (t *trainFlags) configLogged(fs *pflag.FlagSet, log logrus.FieldLogger) (training.Config, error) {
	cfg, warnings, err := t.Config(fs)
	logWarnings(log, warnings)
	return cfg, cli.Usage(err)
}

// resumeLogged is the configuration to resume a checkpoint trained with file.
func (t *trainFlags) resumeLogged(fs *pflag.FlagSet, file training.Config, log logrus.FieldLogger) (training.Config, error) {
	cfg, warnings, err := t.ResumeConfig(fs, file)
	logWarnings(log, warnings)
	return cfg, cli.Usage(err)
}

// resolveFeatureWeight sets cfg.FeatureWeight from the data when --feature-weight is "auto",
// and logs what it measured.
func (t *trainFlags) resolveFeatureWeight(cfg *training.Config, data graphs.Source, log logrus.FieldLogger) error {
	if !t.FeatureWeight.Auto {
		return nil
	}
	w, note, err := t.FeatureWeight.Resolve(data)
	if err != nil {
		return err
	}
	cfg.FeatureWeight = w
	log.Info(note)
	return nil
}

func logWarnings(log logrus.FieldLogger, warnings []string) {
	for _, w := range warnings {
		log.Warn(w)
	}
}
