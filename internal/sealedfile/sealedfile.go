package sealedfile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gwf-graphs/gwf/internal/jsonread"
)

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered files.
var ErrCorrupt = errors.New("corrupt file")

// ErrVersion is wrapped by the error about a file of another version of the format.
var ErrVersion = errors.New("unsupported version")

// kindError is an error of one of the kinds above whose message does not repeat the kind, so
// that callers can wrap it in their own words ("corrupt model file: checksum mismatch").
type kindError struct {
	kind error
	msg  string
}

func (e kindError) Error() string        { return e.msg }
func (e kindError) Is(target error) bool { return target == e.kind }

// FormatError is the ErrCorrupt of a well-formed file of another format than the one asked
// for: a caller may name what the file is (Got) and what makes the right one.
type FormatError struct {
	Want, Got, What string
}

func (e *FormatError) Error() string        { return fmt.Sprintf("not a %s file (format %q)", e.What, e.Got) }
func (e *FormatError) Is(target error) bool { return target == ErrCorrupt }

func errorf(kind error, format string, args ...any) error {
	return kindError{kind, fmt.Sprintf(format, args...)}
}

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

// SealStream writes to w the file Seal returns for the payload that encode writes, without
// holding the payload in memory: encode is called twice, first to hash what it writes, then to
// write it, and must write the same bytes both times — compact JSON as json.Marshal writes
// it. For payloads too large to keep a copy of (a model of 10⁵ graphs).
func SealStream(w io.Writer, format string, version int, encode func(io.Writer) error) error {
	h := sha256.New()
	hb := bufio.NewWriterSize(h, 64<<10)
	if err := encode(hb); err != nil {
		return fmt.Errorf("encode %s file: %w", format, err)
	}
	if err := hb.Flush(); err != nil {
		return fmt.Errorf("encode %s file: %w", format, err)
	}
	head, err := json.Marshal(file{Format: format, Version: version, SHA256: hex.EncodeToString(h.Sum(nil)), Payload: json.RawMessage("0")})
	if err != nil {
		return fmt.Errorf("encode %s file: %w", format, err)
	}
	head = head[:len(head)-2] // the placeholder payload and the closing brace
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head)
	again := sha256.New() // what the second pass wrote, checked against the first
	pw := bufio.NewWriterSize(io.MultiWriter(bw, again), 64<<10)
	if err := encode(pw); err != nil {
		return fmt.Errorf("encode %s file: %w", format, err)
	}
	if err := pw.Flush(); err != nil {
		return fmt.Errorf("write %s file: %w", format, err)
	}
	bw.WriteString("}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s file: %w", format, err)
	}
	if !bytes.Equal(again.Sum(nil), h.Sum(nil)) {
		return fmt.Errorf("encode %s file: the payload changed between its two passes", format)
	}
	return nil
}

// MaxFileBytes bounds the size of the module's model and classifier files (4 GiB: the
// largest model gwf fit allows holds 128 M parameters, about 2.5 GB of JSON); readers pass it
// to Open.
const MaxFileBytes = 4 << 30

// Open reads one file from r, reading at most maxBytes bytes, and returns its payload once its
// format, version and checksum are right. what names the format in messages ("gwf model").
// Errors are ErrCorrupt or ErrVersion (errors.Is), with messages that do not repeat the kind.
// The file is read into one buffer (sized from the file when r knows its size) and the
// payload returned is a part of it, not a copy: a large model is held once while it is read.
func Open(r io.Reader, format string, version int, what string, maxBytes int64) (json.RawMessage, error) {
	buf, err := jsonread.Object(r, maxBytes)
	if err != nil {
		return nil, errorf(ErrCorrupt, "%v", err)
	}
	var f struct {
		Format  string      `json:"format"`
		Version int         `json:"version"`
		SHA256  string      `json:"sha256"`
		Payload payloadView `json:"payload"`
	}
	if err := json.Unmarshal(buf, &f); err != nil {
		return nil, errorf(ErrCorrupt, "%v", err)
	}
	if f.Format != format {
		return nil, &FormatError{Want: format, Got: f.Format, What: what}
	}
	if f.Version != version {
		return nil, errorf(ErrVersion, "%s file version %d is not supported (this gwf reads version %d)", what, f.Version, version)
	}
	sum := sha256.Sum256(f.Payload)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, errorf(ErrCorrupt, "checksum mismatch (truncated or altered)")
	}
	return json.RawMessage(f.Payload), nil
}

// payloadView is the payload's bytes in the buffer Open decodes, kept without a copy: the
// buffer is Open's own and is never written again.
type payloadView []byte

func (p *payloadView) UnmarshalJSON(data []byte) error {
	*p = data
	return nil
}
