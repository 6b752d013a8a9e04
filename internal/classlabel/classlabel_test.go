package classlabel

import (
	"reflect"
	"testing"
)

// TestClassLabelsReport: numbers for numeric labels (the data's own: MUTAG's −1 and 1), text
// for text labels, the index where there are none.
func TestClassLabelsReport(t *testing.T) {
	for _, tc := range []struct {
		l    ClassLabels
		want []any
	}{
		{ClassLabels{Classes: []int{-1, 1}}, []any{-1, 1}},
		{ClassLabels{Classes: []int{0, 1}, ClassNames: []string{"ring", "star"}}, []any{"ring", "star"}},
		{ClassLabels{}, []any{0, 1, 2}},
	} {
		if got := tc.l.Report(len(tc.want)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.l, got, tc.want)
		}
	}
}
