package semisup

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseHidden reads layer widths written as "64,32" (Config.Hidden, Config.EncoderHidden);
// "" and "0" are no layer (a linear head). Widths must be positive and within MaxHiddenUnits,
// at most MaxHiddenLayers of them.
func ParseHidden(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxHiddenLayers {
		return nil, fmt.Errorf("%d layers, more than %d", len(parts), MaxHiddenLayers)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		switch {
		case err != nil || n < 1:
			return nil, fmt.Errorf("%q is not a list of positive layer widths", s)
		case n > MaxHiddenUnits:
			return nil, fmt.Errorf("a layer of %d units, more than %d", n, MaxHiddenUnits)
		}
		out[i] = n
	}
	return out, nil
}
