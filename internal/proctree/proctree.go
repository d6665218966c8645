// Package proctree ends a process together with every process it started.
//
// A time-out of a CI job, of morpheus bench modules or of a script test
// must not leave processes behind; the test processes morpheus test starts
// run in process groups of their own, so killing the group of the
// command's leader is not enough. KillTree kills each descendant found
// under /proc first, then the leader's group.
package proctree
