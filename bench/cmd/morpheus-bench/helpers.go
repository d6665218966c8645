package main

import (
	"strings"

	"github.com/morpheus-go/morpheus/internal/results"
)

// testRecord is one test's outcome in "morpheus test -json"'s output, as
// the suites that run morpheus test (goreal, modules) read it.
type testRecord = results.TestRecord

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "(no stderr)"
	}
	return s
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

func indentLines(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
