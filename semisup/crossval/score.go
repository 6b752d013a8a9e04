package crossval

// PredictionScore is how many predictions on labelled graphs are right, overall and per class:
// what `gwf predict` reports on data that carry labels.
type PredictionScore struct {
	Graphs   int          `json:"graphs"`
	Correct  int          `json:"correct"`
	Accuracy float64      `json:"accuracy"`
	PerClass []ClassScore `json:"per_class"`
}

// ClassScore counts, for one class (a label as the data wrote it), its graphs, those predicted
// right and the graphs predicted as it.
type ClassScore struct {
	Label     string `json:"label"`
	Graphs    int    `json:"graphs"`
	Correct   int    `json:"correct"`
	Predicted int    `json:"predicted"`
}

// ScorePredictions compares predicted with truth, graph by graph, as labels written out (a
// class the classifier never saw counts as wrong); a graph whose truth is "" has no label and
// is left out. classes, the classifier's labels, come first in PerClass, in their order; labels
// met only in the data follow. It returns nil where no graph has a label.
func ScorePredictions(classes, truth, predicted []string) *PredictionScore {
	var s PredictionScore
	index := map[string]int{}
	class := func(label string) *ClassScore {
		i, ok := index[label]
		if !ok {
			i = len(s.PerClass)
			index[label] = i
			s.PerClass = append(s.PerClass, ClassScore{Label: label})
		}
		return &s.PerClass[i]
	}
	for _, c := range classes {
		class(c)
	}
	for i, got := range predicted {
		t := truth[i]
		if t == "" {
			continue
		}
		s.Graphs++
		class(t).Graphs++
		class(got).Predicted++
		if t == got {
			s.Correct++
			class(t).Correct++
		}
	}
	if s.Graphs == 0 {
		return nil
	}
	s.Accuracy = float64(s.Correct) / float64(s.Graphs)
	return &s
}
