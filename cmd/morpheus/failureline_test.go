package main

import (
	"strings"
	"testing"
)

// A failure's one line never has an empty "at :" and carries the message's
// headline, the first blocked goroutine of a deadlock's list included (the
// test's body only when it is the only one blocked).
func TestFailureLine(t *testing.T) {
	for _, c := range []struct {
		kind, task, loc, msg string
		iter                 int
		want                 string
	}{
		{"deadlock", "main", "", "no task can run and no timer is pending; blocked tasks:\n  main: blocked in wg-wait at a.go:3\n  g1: …", 2,
			"deadlock failure in iteration 3, main: no task can run and no timer is pending; blocked tasks: g1: … …"},
		{"deadlock", "main", "", "no task can run and no timer is pending; blocked tasks:\n  main: blocked in chan-recv at a.go:3", 0,
			"deadlock failure in iteration 1, main: no task can run and no timer is pending; blocked tasks: main: blocked in chan-recv at a.go:3"},
		{"liveness", "", "", "no progress", 3, "liveness failure in iteration 4: no progress"},
		{"assertion", "main", "bank_test.go:19", "balance 1", -1, "assertion failure in main at bank_test.go:19: balance 1"},
		{"panic", "", "x.go:1", "boom", -1, "panic failure at x.go:1: boom"},
		{"race", "g2", "?", "data race", 0, "race failure in iteration 1, g2: data race"},
	} {
		if got := failureLine(c.kind, c.iter, c.task, c.loc, c.msg); got != c.want || strings.Contains(got, "at :") {
			t.Errorf("failureLine(%q, %d, %q, %q, …) =\n%q, want\n%q", c.kind, c.iter, c.task, c.loc, got, c.want)
		}
	}
}

// Plain progress lines of two packages never interleave: the second's wait
// for the first's end, then follow in order.
func TestPackageOrder(t *testing.T) {
	var b strings.Builder
	var o packageOrder
	o.add(&b, "a", "a 1")
	o.add(&b, "b", "b 1")
	o.add(&b, "a", "a 2")
	o.add(&b, "c", "c 1")
	o.add(&b, "b", "b 2")
	o.end(&b, "c") // ended before its turn: printed when it comes
	o.end(&b, "a")
	o.add(&b, "b", "b 3")
	o.end(&b, "b")
	if got, want := b.String(), "a 1\na 2\nb 1\nb 2\nb 3\nc 1\n"; got != want {
		t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
}
