//go:build unix

package driver

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock of the file at path (made if missing),
// waiting while another process holds it; the lock goes with the process
// if it dies. It returns the function that releases it.
func lockFile(path string) (func(), error) { return flock(path, 0) }

// tryLockFile is lockFile that does not wait: an error if the lock is
// held.
func tryLockFile(path string) (func(), error) { return flock(path, syscall.LOCK_NB) }

func flock(path string, how int) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|how); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing releases the lock
}
