package main

import (
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
)

// predictScore is how many predictions on labelled data are right, overall and per class.
type predictScore struct {
	Graphs   int          `json:"graphs"`
	Correct  int          `json:"correct"`
	Accuracy float64      `json:"accuracy"`
	PerClass []classScore `json:"per_class"`
}

// classScore counts, for one class (the data's label), its graphs, those predicted right and
// the graphs predicted as it.
type classScore struct {
	Label     string `json:"label"`
	Graphs    int    `json:"graphs"`
	Correct   int    `json:"correct"`
	Predicted int    `json:"predicted"`
}

// scorePredictions compares the predictions with the data's own class labels, where the data
// have them (nil otherwise), and logs the result. Labels are compared as the files wrote them,
// so a class the classifier never saw counts as wrong.
func scorePredictions(a *app, ds *graphs.Dataset, rep predictReport) *predictScore {
	var s predictScore
	index := map[string]int{}
	class := func(label string) *classScore {
		i, ok := index[label]
		if !ok {
			i = len(s.PerClass)
			index[label] = i
			s.PerClass = append(s.PerClass, classScore{Label: label})
		}
		return &s.PerClass[i]
	}
	for _, c := range rep.Classes {
		class(fmt.Sprint(c))
	}
	for i, p := range rep.Predictions {
		g := ds.Graphs[i]
		if !g.HasLabel {
			continue
		}
		truth, got := ds.ClassName(g), fmt.Sprint(p.Predicted)
		s.Graphs++
		class(truth).Graphs++
		class(got).Predicted++
		if truth == got {
			s.Correct++
			class(truth).Correct++
		}
	}
	if s.Graphs == 0 {
		return nil
	}
	s.Accuracy = float64(s.Correct) / float64(s.Graphs)
	a.log.Infof("accuracy on the %d labelled graphs: %.2f%% (%d right)", s.Graphs, 100*s.Accuracy, s.Correct)
	for _, c := range s.PerClass {
		a.log.Infof("class %s: %d graphs, %d predicted right; %d graphs predicted as it", c.Label, c.Graphs, c.Correct, c.Predicted)
	}
	return &s
}
