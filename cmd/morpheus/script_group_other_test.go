//go:build !unix

package main

import "os/exec"

// ownGroup does nothing where there are no process groups; killon needs
// /proc and is refused there anyway.
func ownGroup(cmd *exec.Cmd) {}
