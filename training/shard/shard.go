package shard

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Shard is part Index (0-based) of Count.
type Shard struct {
	Index, Count int
}

// Whole returns the single shard that holds the whole corpus: 0/1.
func Whole() Shard { return Shard{Index: 0, Count: 1} }

// String returns "i/n", the form Parse reads.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Validate checks 0 <= Index < Count.
func (s Shard) Validate() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard: %d/%d: want i/n with 0 <= i < n", s.Index, s.Count)
	}
	return nil
}

// Parse reads "i/n": shard i (0-based) of n.
func Parse(text string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(text), "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard: %q is not i/n (shard i of n, 0-based)", text)
	}
	s := Shard{Index: i, Count: n}
	return s, s.Validate()
}

// Range is the slice [lo, hi) of a corpus of total graphs that the shard holds: contiguous,
// in order, sizes differing by at most one, and together the shards 0..Count-1 cover 0..total
// exactly once. A shard may be empty when there are fewer graphs than shards.
func (s Shard) Range(total int) (lo, hi int) {
	return s.Index * total / s.Count, (s.Index + 1) * total / s.Count
}

// PartName is the file name of the shard's output for the whole-corpus output name:
// "emb.csv" becomes "emb.shard-03-of-16.csv". The index is zero-padded to the width of the
// count, so a shell glob lists the parts in order.
func PartName(output string, s Shard) string {
	ext := filepath.Ext(output)
	width := len(strconv.Itoa(s.Count))
	return fmt.Sprintf("%s.shard-%0*d-of-%d%s", strings.TrimSuffix(output, ext), width, s.Index, s.Count, ext)
}

var partRE = regexp.MustCompile(`\.shard-(\d+)-of-(\d+)(\.[^./]*)?$`)

// ParsePartName returns the shard a PartName names; ok is false for other names.
func ParsePartName(name string) (s Shard, ok bool) {
	m := partRE.FindStringSubmatch(name)
	if m == nil {
		return Shard{}, false
	}
	i, err1 := strconv.Atoi(m[1])
	n, err2 := strconv.Atoi(m[2])
	s = Shard{Index: i, Count: n}
	return s, err1 == nil && err2 == nil && s.Validate() == nil
}
