// Package nbkit holds the experiments of gwf's notebooks, written once: the tour of the library
// and the paper's Figure 3, Figure 4, Table 1 and Table 2. Each is one function (Tour, Fig3,
// Fig4, Table1, Table2) of a context, a configuration of sizes and an Output. The Jupyter
// notebooks notebooks/NAME.ipynb (Go kernel GoNB) call it with an Inline output, which shows the
// text, tables and figures in the notebook; the programs `go run ./notebooks/NAME` parse their
// flags into the same configuration and call it with a Folder, which writes the figures (PNG),
// the numbers (CSV) and a Markdown report to a folder.
//
// Each configuration has a constructor of the paper's sizes (Fig3Paper, …), which the programs
// take as their defaults; the notebooks start small. The node features of each dataset follow
// datasets.PaperFeatures unless a Features map says otherwise.
//
// The package is not internal: a notebook's cells are built in GoNB's own temporary module,
// which reaches this checkout through a replace rule and may import only its public packages.
package nbkit
