package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readNPY parses a version 1.0 .npy file holding a 2-D little-endian float64 C-order array, as
// numpy.load would, checking the header strictly.
func readNPY(r io.Reader) (shape [2]int, data []float64, err error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return shape, nil, err
	}
	if string(pre[:6]) != npyMagic || pre[6] != 1 || pre[7] != 0 {
		return shape, nil, errors.New("not a version 1.0 npy file")
	}
	hlen := int(binary.LittleEndian.Uint16(pre[8:]))
	if (10+hlen)%64 != 0 {
		return shape, nil, fmt.Errorf("data offset %d is not 64-byte aligned", 10+hlen)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return shape, nil, err
	}
	re := regexp.MustCompile(`^\{'descr': '<f8', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \} *\n$`)
	m := re.FindSubmatch(header)
	if m == nil {
		return shape, nil, fmt.Errorf("unexpected header %q", header)
	}
	shape[0], _ = strconv.Atoi(string(m[1]))
	shape[1], _ = strconv.Atoi(string(m[2]))
	raw, err := io.ReadAll(r)
	if err != nil {
		return shape, nil, err
	}
	if len(raw) != 8*shape[0]*shape[1] {
		return shape, nil, fmt.Errorf("%d data bytes for shape %v", len(raw), shape)
	}
	data = make([]float64, shape[0]*shape[1])
	for i := range data {
		data[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return shape, data, nil
}

func TestNPYRoundTrip(t *testing.T) {
	for _, dims := range [][2]int{{1, 1}, {3, 4}, {188, 30}, {1000, 7}} {
		r, c := dims[0], dims[1]
		want := make([]float64, r*c)
		for i := range want {
			want[i] = math.Sin(float64(i)) * math.Pow(10, float64(i%9-4))
		}
		want[0] = math.Copysign(0, -1)
		var buf bytes.Buffer
		if err := writeNPY(&buf, mat.NewDense(r, c, want)); err != nil {
			t.Fatal(err)
		}
		shape, got, err := readNPY(&buf)
		if err != nil {
			t.Fatalf("%v: %v", dims, err)
		}
		if shape != dims {
			t.Fatalf("shape %v, want %v", shape, dims)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v: element %d = %v, want %v", dims, i, got[i], want[i])
			}
		}
	}
}
