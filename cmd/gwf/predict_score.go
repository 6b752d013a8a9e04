package main

import (
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	classexp "github.com/gwf-graphs/gwf/semisup/experiment"
)

// scorePredictions compares the predictions with the data's own class labels, where the data
// have them (nil otherwise), and logs the result.
func scorePredictions(a *app, ds *graphs.Dataset, rep predictReport) *classexp.PredictionScore {
	classes := make([]string, len(rep.Classes))
	for i, c := range rep.Classes {
		classes[i] = fmt.Sprint(c)
	}
	truth, got := make([]string, len(rep.Predictions)), make([]string, len(rep.Predictions))
	for i, p := range rep.Predictions {
		if g := ds.Graphs[i]; g.HasLabel {
			truth[i] = ds.ClassName(g)
		}
		got[i] = fmt.Sprint(p.Predicted)
	}
	s := classexp.ScorePredictions(classes, truth, got)
	if s == nil {
		return nil
	}
	a.log.Infof("accuracy on the %d labelled graphs: %.2f%% (%d right)", s.Graphs, 100*s.Accuracy, s.Correct)
	for _, c := range s.PerClass {
		a.log.Infof("class %s: %d graphs, %d predicted right; %d graphs predicted as it", c.Label, c.Graphs, c.Correct, c.Predicted)
	}
	return s
}
