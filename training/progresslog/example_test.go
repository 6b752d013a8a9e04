package progresslog_test

import (
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/progresslog"
)

// Training progress as a log line (on a terminal it would be a bar): the observer goes in the
// Observe field of any long-running function's options.
func ExampleObserver() {
	log := logrus.New()
	log.SetOutput(os.Stdout)
	log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true})
	observe := progresslog.Observer(log, "training", 1, logrus.Fields{"dataset": "MUTAG"})
	observe.Step(training.Progress{Epoch: 1, Epochs: 10, Done: 188, Total: 188, Loss: 0.0223, GraphsPerSec: 104, ETA: 16 * time.Second})
	// Output: level=info msg=training dataset=MUTAG epoch=1/10 eta=16s graphs=188/188 graphs/s=104.0 loss=0.0223
}
