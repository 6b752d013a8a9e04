package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds how many symbolic links are followed (as Linux's ELOOP does), so a loop of
// links is an error, not a hang.
const maxLinks = 40

// WriteFile writes data to path (see the package comment for what happens at the path).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write calls write with a buffered writer whose bytes end up at path (see the package
// comment). When write or anything after it fails, a regular file at path is left as it was.
// Errors name the path.
func Write(path string, write func(io.Writer) error) error {
	target, info, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	switch {
	case info == nil || info.Mode().IsRegular():
		err = replace(target, info, write)
	case info.IsDir():
		err = fmt.Errorf("%s is a folder, not a file", target)
	default:
		err = inPlace(target, write)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// resolve follows symbolic links from path to the file they end at, returning that file's
// path and its information (nil when it does not exist yet).
func resolve(path string) (string, fs.FileInfo, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, info, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", nil, fmt.Errorf("more than %d symbolic links (a loop?)", maxLinks)
}

// replace writes a regular file through a temporary file, fsync and rename. An existing
// file keeps its permission bits; a new one gets 0644 (CreateTemp makes 0600 files).
func replace(path string, old fs.FileInfo, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	perm := fs.FileMode(0o644)
	if old != nil {
		perm = old.Mode().Perm()
	}
	if err := fill(tmp, write); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// Sync the folder so the rename itself survives a crash; not every system allows it.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// inPlace writes to an existing non-regular file (a FIFO, a device) without creating,
// truncating or replacing anything.
func inPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := fill(f, write); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fill runs write through a buffer into f.
func fill(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}
