// Package atomicfile writes output files so that nothing else at the path is harmed and no
// reader sees a partial file:
//
//   - a regular file (or a path that does not exist yet) is written to a synced temporary file
//     in the same folder and renamed over the path, so a crash at any moment leaves either the
//     old file or the new one;
//   - a symbolic link is followed (through chains of links, dangling ones included) and its
//     final target is replaced in that way; the link itself stays;
//   - a FIFO, a character or block device or any other non-regular file is written in place,
//     as a shell redirection would (there is no atomicity to have there), never replaced by a
//     regular file: "-o /dev/null" discards the output and leaves /dev/null alone;
//   - a folder is refused with an error that says so.
//
// Hand-written: the standard library has no atomic write, and the packages that offer one
// replace symlinks and device files with regular files, which is what this package exists to
// avoid.
package atomicfile
