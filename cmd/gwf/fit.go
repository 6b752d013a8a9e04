package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

// fitFlags are the flags of "gwf fit".
type fitFlags struct {
	data   dataFlags
	train  trainFlags
	output string
	resume bool
	force  bool
	stream bool
}

func newFitCmd(a *app) *cobra.Command {
	var f fitFlags
	cmd := &cobra.Command{
		Use:   "fit (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) --output FILE",
		Short: "Learn a GWF model (atoms and graph embeddings) of a dataset",
		Long: `fit learns a Gromov-Wasserstein factorization model of a graph dataset (Algorithm 4 of the
paper): K atoms and one embedding z_i per graph, with λ_i = softmax(z_i) weighing the atoms of
a GW barycenter that reconstructs graph i. Defaults are the paper's settings, structure only
(--features none).

With node features the fused cost adds the squared feature distances to the structure cost,
weighted by --feature-weight (1 in the paper). Their scales depend on the units of the
attributes: standardized, PROTEINS_full's 29 attributes cost about 140 times the structure.
--feature-weight auto weighs them so that both terms have the same mean over the data under
independent couplings (measured without labels, logged, and stored in the model).

The model is written to --output before training and again, atomically, after every epoch, so
it is always a usable checkpoint. An existing file is only replaced with --force; --resume
continues training it instead, with the configuration stored in it (--epochs then counts all
epochs, done and to do; other training flags that differ are ignored with a warning) and the
same data flags as the first run.

SIGINT (Ctrl-C) or SIGTERM stops training within one graph's forward pass (the mini-batch in
progress is dropped and resumes from its start), keeping the last checkpoint;
the message says how to resume. A second interrupt aborts at once.

--stream keeps the graphs on disk: the collection is read once into a spool file beside
--output (.gwf-stream-*.store, removed at the end; a killed process leaves it) and each
mini-batch reads its graphs from it, so memory holds the model and one batch's graphs instead
of the whole dataset; the model is the same, bit for bit.

Progress is logged to stderr every 5 seconds and at the end of each epoch (--quiet: not at all).`,
		Example: `  gwf fit --dataset MUTAG --output mutag.model
  gwf fit --dataset PROTEINS --features labels --atoms 40 --output proteins.model
  gwf fit --dataset IMDB-BINARY --features degrees --output imdb.model   # one-hot degrees: features for graphs without
  gwf fit --dataset PROTEINS_full --features attributes --standardize --feature-weight auto --output pf.model
  gwf fit --tu ./data/MYDATA --solver badmm --epochs 20 --output my.model
  gwf fit --dataset MUTAG --output mutag.model --resume --epochs 20
  gwf fit --tu ./SBM100000 --stream --output sbm.model     # graphs read from disk batch by batch`,
		Annotations: cli.Interruptible("the model file is as it was"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFit(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	outputFlag(fs, &f.output, "", "model file to write (required); the checkpoint after every epoch")
	resumeFlag(fs, &f.resume, " if it exists")
	fs.BoolVar(&f.force, "force", false, "replace an existing --output file with a new model")
	fs.BoolVar(&f.stream, "stream", false, "read the graphs from disk batch by batch (a spool file beside --output, removed at the end): memory holds one batch's graphs, not the dataset; same model bit for bit")
	return cmd
}

func runFit(cmd *cobra.Command, a *app, f *fitFlags) error {
	flags := cmd.Flags()
	if f.output == "" {
		return cli.Usagef("--output FILE is required")
	}
	if err := f.data.check(); err != nil {
		return err
	}
	var m *training.Model
	var cfg training.Config
	resuming := false
	if _, err := os.Stat(f.output); err == nil {
		switch {
		case f.resume:
			resuming = true
		case !f.force:
			return cli.Usagef("%s exists: add --resume to continue training it, or --force to replace it", f.output)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("output: %w", err)
	} else if f.resume {
		a.Log.Infof("no checkpoint at %s: starting a new model", f.output)
	}
	if resuming {
		var err error
		if m, err = training.Load(f.output); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		if err := m.Resumable(); err != nil {
			return fmt.Errorf("resume %s: %w; start anew with --force", f.output, err)
		}
		if cfg, err = f.train.resumeLogged(flags, m.Config, a.Log); err != nil {
			return err
		}
		m.Config = cfg
		if err := f.data.useModelFeatures(a.Log, m.Features); err != nil {
			return fmt.Errorf("resume %s: %w", f.output, err)
		}
	} else {
		var err error
		if cfg, err = f.train.configLogged(flags, a.Log); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	fd, err := loadFitData(ctx, a.Log, &f.data, f.stream, f.output)
	if err != nil {
		return err
	}
	defer fd.close()
	data := fd.src
	if resuming {
		if err := checkModelData(m, data, fd.dim); err != nil {
			return fmt.Errorf("resume %s: %w", f.output, err)
		}
		if len(m.History) >= cfg.Epochs {
			fmt.Fprintf(cmd.OutOrStdout(), "%s already holds %d epochs (--epochs %d): nothing to do\n", f.output, len(m.History), cfg.Epochs)
			return nil
		}
		a.Log.Infof("resuming %s after epoch %d of %d: %s", f.output, len(m.History), cfg.Epochs, cfg.Describe())
	} else {
		if err := f.train.resolveFeatureWeight(&cfg, data, a.Log); err != nil {
			return err
		}
		if m, err = training.NewModel(data, cfg); err != nil {
			return fmt.Errorf("new model: %w", err)
		}
		m.Features = fd.encoding
		if err := m.Save(f.output); err != nil { // fail early when the output is not writable
			return fmt.Errorf("write model: %w", err)
		}
		a.Log.Infof("training on %s (%d graphs, node features: %s%s): %s", fd.name, data.Len(), f.data.Features, streamNote(f.stream), cfg.Describe())
	}
	saved, err := training.FitFile(ctx, m, data, f.output, training.Options{
		Workers: f.train.Workers, Observe: a.observer("training", nil), SkipNonFinite: f.train.SkipNonFinite,
		EpochDone: func(m *training.Model) error {
			a.Log.Debugf("epoch %d: checkpoint written to %s", len(m.History), f.output)
			return nil
		},
	})
	if err != nil {
		where := fmt.Sprintf("%s holds the model %s", f.output, saved.Describe(cfg.Epochs, data.Len()))
		if ctx.Err() != nil {
			return cli.Interrupted(fmt.Sprintf("interrupted: %s; resume with:\n  %s", where, cli.ResumeCommand(cmd, "force")))
		}
		return fmt.Errorf("training: %w (%s)", err, where)
	}
	msg := fmt.Sprintf("trained %d epoch(s) on %d graphs of %s", len(m.History), data.Len(), fd.name)
	if n := len(m.History); n > 0 {
		msg += fmt.Sprintf(": loss %.6g", m.History[n-1].Loss)
	}
	if _, err := fmt.Fprintf(cmd.OutOrStdout(), "%s; model written to %s\n", msg, f.output); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// checkModelData explains why a model does not belong to the graphs of src (of feature
// dimension dim), or returns nil.
func checkModelData(m *training.Model, src graphs.Source, dim int) error {
	if dim != m.Dim() {
		return errors.New(featureHint(m.Dim(), dim))
	}
	if ok, err := m.TrainedOn(src); ok || err != nil {
		return err
	}
	r, _ := m.Z.Dims()
	return fmt.Errorf("the data (%d graphs) are not the %d graphs the model was trained on: use the same --dataset/--tu, --features and --subset", src.Len(), r)
}

// streamNote says in the log that the graphs are streamed.
func streamNote(stream bool) string {
	if stream {
		return ", streamed from disk"
	}
	return ""
}
