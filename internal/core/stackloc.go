package core

import (
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
)

// StackLocation returns the file:line of the first frame of stack, a
// goroutine's stack as runtime.Stack prints it, that is neither Go's
// (its runtime's, its standard library's) nor morpheus's (see ownPackage):
// the user's line where a goroutine the watchdog found blocked waits (in a
// read of the standard library's), or spins. It returns "" if there is
// none.
func StackLocation(stack string) string {
	lines := strings.Split(stack, "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn, at := lines[i], lines[i+1]
		if strings.HasPrefix(fn, "\t") || !strings.HasPrefix(at, "\t") {
			continue
		}
		i++
		if strings.HasPrefix(fn, "created by ") {
			return ""
		}
		if p := strings.LastIndexByte(fn, '('); p > 0 {
			fn = fn[:p]
		}
		at = strings.TrimPrefix(at, "\t")
		if sp := strings.IndexByte(at, ' '); sp >= 0 {
			at = at[:sp]
		}
		if strings.HasPrefix(fn, "runtime.") || ownPackage(funcPackage(fn)) || strings.HasPrefix(at, goSrc) {
			continue
		}
		return filepath.Base(at)
	}
	return ""
}

// goSrc is the directory of the standard library's source as the binary's
// file names spell it, with a final slash: two levels above runtime's
// files.
var goSrc = func() string {
	f, _ := runtime.CallersFrames([]uintptr{reflect.ValueOf(runtime.Gosched).Pointer() + 1}).Next()
	if f.File == "" {
		return "\x00" // matches no file
	}
	return path.Dir(path.Dir(f.File)) + "/"
}()
