// Package jsonread reads a file holding one JSON object (a model file, a graph file) into
// memory, bounded: the size is checked before the buffer is allocated when the reader can tell
// it, never more than the limit is read, and a stream that does not begin with '{' (a device
// such as /dev/zero, a binary file given by mistake) is refused at its first bytes.
package jsonread
