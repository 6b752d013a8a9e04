package main

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// The flags several commands share, each defined here once: the commands differ only in what
// the flag's file or value holds, which what says.

// jsonFlag registers --json: what says what the command writes as JSON.
func jsonFlag(fs *pflag.FlagSet, v *bool, what string) {
	fs.BoolVar(v, "json", false, "write "+what+" as JSON")
}

// outputFlag registers --output (-o), the file the command writes (def: "" or "-" for stdout).
func outputFlag(fs *pflag.FlagSet, v *string, def, what string) {
	fs.StringVarP(v, "output", "o", def, what)
}

// outputDirFlag registers --output-dir, the folder of a multi-part run's files, kept for a
// rerun to reuse: what says what it holds.
func outputDirFlag(fs *pflag.FlagSet, v *string, what string) {
	fs.StringVar(v, "output-dir", "", what)
}

// resumeFlag registers --resume, to continue training the model in the --output file: how
// says how exactly.
func resumeFlag(fs *pflag.FlagSet, v *bool, how string) {
	fs.BoolVar(v, "resume", false, "continue training the model in --output"+how)
}

// modelFlag registers --model (-m), the model file the command reads.
func modelFlag(fs *pflag.FlagSet, v *string, what string) {
	fs.StringVarP(v, "model", "m", "", what)
}

// formatFlag registers --format, the format of a matrix --output.
func formatFlag(fs *pflag.FlagSet, v *string) {
	fs.StringVar(v, "format", "", "format of --output: csv, npy or npz (default: from its extension, else csv)")
}

// embeddingFlag registers --embedding, z or λ.
func embeddingFlag(fs *pflag.FlagSet, v *string, what string) {
	fs.StringVar(v, "embedding", string(experiment.DefaultEmbedding), what+": z (the raw embeddings) or lambda (softmax(z), the atom weights)")
}

// encoderFlags are --encoder, --encoder-hidden and --encoder-lr: the graph encoder that
// computes the embeddings instead of the paper's free z.
type encoderFlags struct {
	kind   string
	hidden string
	lr     float64
}

// defaultEncoderHidden is the default of --encoder-hidden.
var defaultEncoderHidden = widthsText(semisup.DefaultEncoderHidden())

// widthsText is layer widths as --hidden and --encoder-hidden take them ("32,32").
func widthsText(w []int) string {
	s := make([]string, len(w))
	for i, v := range w {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

// register adds the flags; trainedBy says what trains the encoder.
func (e *encoderFlags) register(fs *pflag.FlagSet, trainedBy string) {
	fs.StringVar(&e.kind, "encoder", string(semisup.EncoderNone), "embeddings: none (one free z per graph, the paper's model), gcn or gin (z = a graph neural network of the graph, trained by "+trainedBy+"; unseen graphs are embedded by one forward pass)")
	fs.StringVar(&e.hidden, "encoder-hidden", defaultEncoderHidden, "hidden widths of the --encoder")
	fs.Float64Var(&e.lr, "encoder-lr", 0, "Adam learning rate of the --encoder's weights (0: --lr, the GWF model's)")
}

// encoder is --encoder as a setting; the settings' Validate checks it.
func (e *encoderFlags) encoder() semisup.EncoderKind { return semisup.EncoderKind(e.kind) }

// widths parses --encoder-hidden.
func (e *encoderFlags) widths() ([]int, error) {
	h, err := semisup.ParseHidden(e.hidden)
	if err != nil || len(h) == 0 {
		return nil, cli.Usagef("--encoder-hidden %q: give one or more widths", e.hidden)
	}
	return h, nil
}
