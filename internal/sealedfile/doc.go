// Package sealedfile is the outer layer of gwf's model files: one JSON object
//
//	{"format": "<name>", "version": N, "sha256": "<hex of the payload's bytes>", "payload": {…}}
//
// whose checksum covers the payload exactly as written, so that truncation and corruption are
// detected before the payload is decoded. The packages that own a file format (training,
// semisup) encode and check the payload itself; large payloads are written in pieces
// (SealStream, Pieces), never held in memory whole.
package sealedfile
