package core

import (
	"path/filepath"
	"strings"
)

// StackLocation returns the file:line of the first frame of stack, a
// goroutine's stack as runtime.Stack prints it, that is neither Go's
// runtime nor morpheus's (see ownPackage): where a goroutine the watchdog
// found blocked waits, or spins. It returns "" if there is none.
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
		if strings.HasPrefix(fn, "runtime.") || ownPackage(funcPackage(fn)) {
			continue
		}
		at = strings.TrimPrefix(at, "\t")
		if sp := strings.IndexByte(at, ' '); sp >= 0 {
			at = at[:sp]
		}
		return filepath.Base(at)
	}
	return ""
}
