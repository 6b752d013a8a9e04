package graphs

// The Python dict literal networkx's write_edgelist puts after an edge ("{'weight': 2.5}"), read
// for its weight.

import (
	"fmt"
	"strings"
)

// pyDictWeight reads the Python dict literal that s opens with (the repr of a dict of edge
// attributes) and returns the text of its 'weight' value; ok is false when it has none. Only
// comments and blanks may follow the dict.
func pyDictWeight(s string) (weight string, ok bool, err error) {
	i := 1 // past "{"
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	item := func(what string) (string, error) {
		skip()
		n, err := pyLiteral(s[i:])
		if err != nil {
			return "", err
		}
		v := strings.TrimSpace(s[i : i+n])
		if v == "" {
			return "", fmt.Errorf("no %s at byte %d of %q", what, i+1, s)
		}
		i += n
		return v, nil
	}
	for skip(); i < len(s) && s[i] != '}'; {
		key, err := item("key")
		if err != nil {
			return "", false, err
		}
		if i >= len(s) || s[i] != ':' {
			return "", false, fmt.Errorf("key %s without a value in %q", key, s)
		}
		i++
		val, err := item("value")
		if err != nil {
			return "", false, err
		}
		if key == "'weight'" || key == `"weight"` {
			weight, ok = pyUnwrap(val), true
		}
		if i < len(s) && s[i] == ',' {
			i++
			skip()
		} else if i < len(s) && s[i] != '}' {
			return "", false, fmt.Errorf("%q after %s: want \",\" or \"}\"", s[i], key)
		}
	}
	if i >= len(s) {
		return "", false, fmt.Errorf("%q is not closed by a }", s)
	}
	if rest := strings.TrimSpace(s[i+1:]); rest != "" && rest[0] != '#' {
		return "", false, fmt.Errorf("%q after the dict", rest)
	}
	return weight, ok, nil
}

// pyLiteral is the length of the Python literal that s opens with: up to a ",", ":" or
// closing bracket outside brackets and quotes.
func pyLiteral(s string) (int, error) {
	var open []byte // the closing brackets awaited
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return 0, fmt.Errorf("string not closed in %q", s)
			}
			i = j
		case '(', '[', '{':
			open = append(open, ")]}"[strings.IndexByte("([{", c)])
		case ')', ']', '}':
			if len(open) == 0 {
				return i, nil
			}
			if open[len(open)-1] != c {
				return 0, fmt.Errorf("%q where %q was expected in %q", c, open[len(open)-1], s)
			}
			open = open[:len(open)-1]
		case ',', ':':
			if len(open) == 0 {
				return i, nil
			}
		}
	}
	return len(s), nil
}

// pyUnwrap takes the number out of a numpy scalar's repr, "np.float64(2.5)" (numpy 2 writes
// those for weights taken from arrays).
func pyUnwrap(v string) string {
	i := strings.IndexByte(v, '(')
	if i <= 0 || !strings.HasSuffix(v, ")") || strings.Trim(v[:i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
		return v
	}
	return strings.TrimSpace(v[i+1 : len(v)-1])
}
