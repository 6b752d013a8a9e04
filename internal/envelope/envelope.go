package envelope

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered files.
var ErrCorrupt = errors.New("corrupt file")

// ErrVersion is wrapped by the error about a file of another version of the format.
var ErrVersion = errors.New("unsupported version")

type file struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	SHA256  string          `json:"sha256"`
	Payload json.RawMessage `json:"payload"`
}

// Seal returns the file that holds payload (valid JSON) under format and version, ending in a
// newline.
func Seal(format string, version int, payload []byte) ([]byte, error) {
	sum := sha256.Sum256(payload)
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(file{Format: format, Version: version, SHA256: hex.EncodeToString(sum[:]), Payload: payload}); err != nil {
		return nil, fmt.Errorf("encode %s file: %w", format, err)
	}
	return buf.Bytes(), nil
}

// Open reads one file from r, reading at most maxBytes bytes, and returns its payload once its
// format, version and checksum are right. what names the format in messages ("gwf model").
func Open(r io.Reader, format string, version int, what string, maxBytes int64) (json.RawMessage, error) {
	lr := &io.LimitedReader{R: r, N: maxBytes + 1}
	var f file
	if err := json.NewDecoder(lr).Decode(&f); err != nil {
		if lr.N <= 0 {
			return nil, fmt.Errorf("%w: larger than %d bytes", ErrCorrupt, maxBytes)
		}
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if f.Format != format {
		return nil, fmt.Errorf("%w: not a %s file (format %q)", ErrCorrupt, what, f.Format)
	}
	if f.Version != version {
		return nil, fmt.Errorf("%w: %s file version %d (this gwf reads version %d)", ErrVersion, what, f.Version, version)
	}
	sum := sha256.Sum256(f.Payload)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return f.Payload, nil
}
