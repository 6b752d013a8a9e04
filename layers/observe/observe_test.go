package observe

import "testing"

// TestObserver: a nil observer takes every call; InRun stamps the run; Say formats.
func TestObserver(t *testing.T) {
	var nilObserver Observer
	nilObserver.Step(Progress{})
	nilObserver.Count(1, 2)
	nilObserver.Say(true, "x")
	if nilObserver.InRun(3) != nil {
		t.Error("InRun of nil observes")
	}
	var got []Event
	o := Observer(func(e Event) { got = append(got, e) }).InRun(2)
	o.Step(Progress{Epoch: 1})
	o.Count(3, 4)
	o.Say(true, "skipped %d graphs", 5)
	if len(got) != 3 || got[0].Step == nil || got[0].Step.Epoch != 1 || got[1].Done != 3 || got[1].Total != 4 ||
		got[2].Message != "skipped 5 graphs" || !got[2].Warning {
		t.Fatalf("events %+v", got)
	}
	for _, e := range got {
		if e.Run != 2 {
			t.Errorf("event %+v: run %d, want 2", e, e.Run)
		}
	}
}
