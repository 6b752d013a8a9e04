// Package synthetic makes labelled corpora of random graphs of any size, deterministic for a
// seed, and writes them to disk as TU datasets one graph at a time (graphs.TUWriter), so that
// corpora far larger than memory can be made and read back with graphs.ReadTUPath. Graph i is
// drawn from its own generator seeded by (Seed, i), so any graph can be made again alone.
package synthetic
