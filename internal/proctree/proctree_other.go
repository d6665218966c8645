//go:build !unix

package proctree

import "os"

// KillTree kills process pid; without process groups and /proc the
// processes it started are not found.
func KillTree(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// Descendants finds none where there is no /proc.
func Descendants(pid int) []int { return nil }
