//go:build !unix

package driver

import "errors"

var errNoLock = errors.New("no file locks on this system")

// lockFile is not available here: the shadow is built in each rewrite
// cache's own directory.
func lockFile(string) (func(), error) { return nil, errNoLock }

func tryLockFile(string) (func(), error) { return nil, errNoLock }
