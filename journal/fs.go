package journal

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// fileSystem is what the journal writes through: the operating system's
// (osFS), or in tests one that fails on demand, as a full disk or a process
// out of file descriptors does.
type fileSystem interface {
	OpenFile(name string, flag int, perm os.FileMode) (file, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
}

// file is an open file of a fileSystem.
type file interface {
	io.Writer
	io.WriterAt
	io.ReaderAt
	// Datasync flushes the file's data to the disk (fdatasync).
	Datasync() error
	// Sync flushes the file, or a directory's entries (fsync).
	Sync() error
	Truncate(size int64) error
	Close() error
	Name() string
}

// osFS is the operating system's file system.
type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm os.FileMode) (file, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (osFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

func (osFS) Remove(name string) error { return os.Remove(name) }

type osFile struct{ *os.File }

func (f osFile) Datasync() error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			if err != nil {
				return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
			}
			return nil
		}
	}
}
