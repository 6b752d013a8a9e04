// Package linelimit bounds the lines of text a reader passes on, so that a parser that keeps a
// whole line or record in memory (encoding/csv) fails with a clear error on a file without
// line ends — a device such as /dev/zero, a binary file given by mistake — instead of growing
// without bound.
package linelimit
