package graphs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// checkFolderEntry refuses an entry of the graph folder root, at path p and of type typ (as
// its listing gives it), that a read would open: one that is not a regular file, and a
// symbolic link whose target lies outside root. It opens nothing.
func checkFolderEntry(root, p string, typ fs.FileMode) error {
	if typ.IsRegular() {
		return nil
	}
	if typ&fs.ModeSymlink != 0 {
		// A link out of the folder would be read without notice, and a parse error would then
		// quote a line of a file the user never meant to give.
		target, err := realPath(p)
		if err != nil {
			return fmt.Errorf("%s: a symbolic link that cannot be followed: %w", p, err)
		}
		base, err := realPath(root)
		if err != nil {
			return err
		}
		if !withinDir(base, target) {
			return fmt.Errorf("%s: a symbolic link that leaves the folder %s (to %s): gwf reads only the folder's own files; copy the file in", p, root, target)
		}
		info, err := os.Stat(target)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if typ = info.Mode().Type(); typ.IsRegular() || typ.IsDir() {
			return nil // a directory is told by its name, as one that is no link
		}
	}
	return notRegular(p, typ)
}

// realPath is the absolute path of p with every symbolic link followed.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// withinDir reports whether path lies in the folder dir or below it; both are clean and
// absolute.
func withinDir(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// notRegular is the error of the file p of type typ, not a regular file: reading a named pipe
// waits for a writer, maybe forever, and a device may never end, so neither is opened.
func notRegular(p string, typ fs.FileMode) error {
	kind := "a special file"
	switch {
	case typ&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case typ&fs.ModeSocket != 0:
		kind = "a socket"
	case typ&fs.ModeDevice != 0:
		kind = "a device"
	case typ.IsDir():
		kind = "a directory"
	}
	return fmt.Errorf("%s: %s, not a regular file: gwf reads graphs only from regular files", p, kind)
}
