package sct

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The suite is written a second time as plain Go, in the module sctplain
// under testdata/plain: plain variables and fields, sync.Mutex,
// sync.WaitGroup, go statements and sync/atomic, each case an ordinary test
// (and its fixed variant) that morpheus's rewriter puts under control; bench
// sct -plain measures both versions side by side. There a hit is a failing
// schedule of the test, whatever the failure: the plain tests fail only by
// their own check (t.Error, or a deadlock for deadlock01) when run with
// races allowed.

// PlainTests returns the names of case name's test in the plain module and
// of its fixed variant: reorder_10 is TestReorder10 and TestReorder10Fixed,
// circular_buffer TestCircularBuffer, WSQ TestWSQ.
func PlainTests(name string) (buggy, fixed string) {
	var b strings.Builder
	b.WriteString("Test")
	for _, part := range strings.Split(name, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String(), b.String() + "Fixed"
}

// PlainDir returns the directory of the plain module: under $MORPHEUS_SRC
// if it is set, else beside this file's source.
func PlainDir() (string, error) {
	src := os.Getenv("MORPHEUS_SRC")
	if src == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			return "", fmt.Errorf("sct: cannot locate the plain-Go suite: set MORPHEUS_SRC")
		}
		src = filepath.Join(filepath.Dir(file), "..", "..", "..")
	}
	dir := filepath.Join(src, "bench", "internal", "sct", "testdata", "plain")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("sct: the plain-Go suite is not at %s: set MORPHEUS_SRC", dir)
	}
	return filepath.Clean(dir), nil
}
