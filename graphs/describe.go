package graphs

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Description is what 'gwf datasets' says of a collection: its summary, the width of its node
// labels and attributes, and which node features were read or left unread.
type Description struct {
	Summary
	NodeLabels     int `json:"node_labels"`     // one-hot width of the node labels (0: none read)
	NodeAttributes int `json:"node_attributes"` // node attribute dimension (0: none read)
	// OfferedFeatures are the kinds of node features a TU source has files for.
	OfferedFeatures []string `json:"offered_features,omitempty"`
	// Features is what the features flag read, when the caller chose it from the data.
	Features string `json:"features,omitempty"`
	// Unread is what the source has that was not read (Dataset.Unread).
	Unread []string `json:"unread,omitempty"`
	// EdgeLabels says that every graph's edge labels were read (FeatureEncoding.EdgeLabels).
	EdgeLabels bool `json:"edge_labels,omitempty"`
	// LeftOut is what some graphs have and others lack (Dataset.LeftOut).
	LeftOut []string `json:"left_out,omitempty"`
}

// Describe summarises ds as read; features says which node features the caller chose from
// the data ("" when the user named them).
func Describe(ds *Dataset, features string) Description {
	d := Description{Summary: Summarize(ds), Features: features, Unread: ds.Unread, EdgeLabels: ds.Encoding.EdgeLabels, LeftOut: ds.LeftOut}
	for _, k := range ds.Offered {
		d.OfferedFeatures = append(d.OfferedFeatures, k.String())
	}
	switch e := ds.Encoding; {
	case e.Kind.HasLabels():
		d.NodeLabels = len(e.NodeLabels) + len(e.NodeLabelNames)
		d.NodeAttributes = e.Attributes
	case e.Kind == FeaturesAttributes:
		d.NodeAttributes = d.FeatureDim
	}
	return d
}

// WriteDescriptions writes the descriptions as a table, one row each, then for each a line
// that names the node features read, or those its files offer but were not read, one for
// graphs without a class label beside labelled ones, one for edge labels read, one naming what no option reads, and one for each thing only some graphs
// have (Dataset.LeftOut).
func WriteDescriptions(w io.Writer, ds []Description) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tgraphs\tclasses\tavg nodes\tavg edges\tnode labels\tattr dim\t")
	for _, s := range ds {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%d\t%d\t\n", s.Name, s.Graphs, s.Classes, s.AvgNodes, s.AvgEdges, s.NodeLabels, s.NodeAttributes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range ds {
		var err error
		if s.Features != "" {
			_, err = fmt.Fprintf(w, "node features read: %s\n", s.Features)
		}
		if kinds := s.OfferedFeatures; err == nil && len(kinds) > 0 && s.NodeLabels == 0 && s.NodeAttributes == 0 {
			if len(kinds) == 2 {
				kinds = slices.Concat(kinds, []string{"both"})
			}
			_, err = fmt.Fprintf(w, "%s also has node features (%s), not read here: add --features %s\n",
				s.Name, strings.Join(s.OfferedFeatures, ", "), strings.Join(kinds, "|"))
		}
		if err == nil && s.Unlabelled > 0 {
			_, err = fmt.Fprintf(w, "%s: %d of the %d graphs have no class label: 'gwf classify' and 'gwf semisup' predict them\n", s.Name, s.Unlabelled, s.Graphs)
		}
		if err == nil && s.EdgeLabels {
			_, err = fmt.Fprintf(w, "%s has edge labels, which 'gwf classify' compares in Weisfeiler-Lehman labels\n", s.Name)
		}
		if err == nil && len(s.Unread) > 0 {
			_, err = fmt.Fprintf(w, "%s also has %s, which gwf does not read (it compares structure and node features)\n", s.Name, strings.Join(s.Unread, " and "))
		}
		for _, l := range s.LeftOut {
			if err == nil {
				_, err = fmt.Fprintf(w, "%s: %s\n", s.Name, l)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}
