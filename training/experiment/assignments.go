package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gwf-graphs/gwf/graphs"
)

// WriteAssignments writes the cluster of every graph of ds in each run of the report as CSV,
// one row per graph in data order: "graph,label,cluster" for one run, "graph,label,
// cluster_run0,cluster_run1,..." for several. The label is the dataset's own ("" for none). A
// run reused from a record older than the assignments has none: it is an error, naming it.
func (rep *Report) WriteAssignments(w io.Writer, ds *graphs.Dataset) error {
	header := []string{"graph", "label"}
	for _, r := range rep.Runs {
		if len(r.Assign) != len(ds.Graphs) {
			return fmt.Errorf("run %d holds %d assignments for %d graphs (a run reused from an older record: delete it to recompute)", r.Run, len(r.Assign), len(ds.Graphs))
		}
		if len(rep.Runs) == 1 {
			header = append(header, "cluster")
		} else {
			header = append(header, "cluster_run"+strconv.Itoa(r.Run))
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(header)
	for i, g := range ds.Graphs {
		rec := []string{g.Name, LabelText(ds, g)}
		for _, r := range rep.Runs {
			rec = append(rec, strconv.Itoa(r.Assign[i]))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write assignments: %w", err)
	}
	return nil
}
