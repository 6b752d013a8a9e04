package semisup

import (
	"slices"
	"strings"
	"testing"
)

func TestParseHidden(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"", nil, ""}, {" 0 ", nil, ""}, {"32", []int{32}, ""}, {"64, 32", []int{64, 32}, ""},
		{"64,,32", nil, "positive"}, {"-1", nil, "positive"}, {"a", nil, "positive"}, {"0,4", nil, "positive"},
		{"70000", nil, "more than 65536"}, {strings.Repeat("1,", 64) + "1", nil, "65 layers"},
	} {
		got, err := ParseHidden(tc.in)
		if tc.err == "" && (err != nil || !slices.Equal(got, tc.want)) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseHidden(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}
