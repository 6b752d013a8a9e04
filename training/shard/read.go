package shard

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/internal/linelimit"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// ReadCSV reads the CSV parts written by CSVWriter (or "gwf embed"), in the order given, into
// one set of embeddings, to export in another format (experiment.Embeddings.WriteNPZ, WriteNPY).
// Unlike MergeCSV it holds every row in memory: K floats per graph, not the graphs. The numbers
// come back exactly (CSVWriter writes the shortest decimal that parses to the same float64).
func ReadCSV(parts []string) (experiment.Embeddings, error) {
	if len(parts) == 0 {
		return experiment.Embeddings{}, errors.New("shard: no parts to read")
	}
	var e experiment.Embeddings
	var header []string
	for _, p := range parts {
		if err := readPart(p, &e, &header); err != nil {
			return experiment.Embeddings{}, err
		}
	}
	return e, nil
}

// readPart appends the rows of part p to e; header is the first part's, which every part must
// repeat.
func readPart(p string, e *experiment.Embeddings, header *[]string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	if err := regular(f); err != nil {
		return err
	}
	r := csv.NewReader(linelimit.New(f, maxRowBytes))
	r.ReuseRecord = true
	rec, err := r.Read()
	if err != nil {
		return fmt.Errorf("shard: %s: no header line: not a CSV of gwf embed (%w)", p, err)
	}
	if *header == nil {
		kind, k := training.Embedding(""), len(rec)-2
		if k >= 1 && rec[0] == "graph" && rec[1] == "label" {
			kind = training.Embedding(strings.TrimSuffix(rec[2], "0"))
		}
		if _, err := training.ParseEmbedding(string(kind)); err != nil || !sameHeader(rec, kind) {
			return fmt.Errorf("shard: %s: header %q is not that of gwf embed (graph,label,z0,... or graph,label,lambda0,...)", p, strings.Join(rec, ","))
		}
		*header = append([]string(nil), rec...)
		e.Kind = kind
	} else if strings.Join(rec, ",") != strings.Join(*header, ",") {
		return fmt.Errorf("shard: %s: header %q differs from the first part's %q (parts of different runs?)", p, strings.Join(rec, ","), strings.Join(*header, ","))
	}
	k := len(*header) - 2
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			return fmt.Errorf("shard: %s: %w", p, err)
		}
		row := make([]float64, k)
		for j := range row {
			if row[j], err = strconv.ParseFloat(rec[j+2], 64); err != nil {
				return fmt.Errorf("shard: %s:%d: column %s: %q is not a number", p, line, (*header)[j+2], rec[j+2])
			}
		}
		e.Names = append(e.Names, rec[0])
		e.Labels = append(e.Labels, rec[1])
		e.Rows = append(e.Rows, row)
	}
}

// sameHeader reports whether rec is graph,label,<kind>0,...,<kind>K-1.
func sameHeader(rec []string, kind training.Embedding) bool {
	for j, name := range rec[2:] {
		if name != string(kind)+strconv.Itoa(j) {
			return false
		}
	}
	return true
}
