// Package trainflags holds the command-line flags of a GWF model's hyperparameters — --atoms,
// --atom-size, the GWD solver's --solver, --gamma, --layers, --inner and --tol,
// --feature-weight (a number or "auto"), --gwb-layers, --lr, --epochs, --batch, --seed,
// --workers and --skip-nonfinite — with the paper's settings (training.DefaultConfig) as
// defaults, and their translation into a training.Config, for a new model or for resuming a
// checkpoint. Every training command of gwf registers them from here, as the data flags come
// from graphs/collection/dataflags. Errors are the user's mistakes in the flags; a command
// reports them as usage errors.
package trainflags
