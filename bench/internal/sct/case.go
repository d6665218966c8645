package sct

import (
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// Case is one program of the suite.
type Case struct {
	Name string
	// Threads and Steps are the size the thesis gives: threads including
	// main, and the largest number of steps of an iteration.
	Threads, Steps int
	Buggy, Fixed   func(e *morpheus.Env)
	// Kind and Prefix define a hit: a failure of kind Kind whose message
	// starts with Prefix (for deadlocks: contains it).
	Kind, Prefix string
}

// Hit reports whether a failure is the case's intended one.
func (c *Case) Hit(kind, msg string) bool {
	if kind != c.Kind {
		return false
	}
	if kind == "deadlock" {
		return strings.Contains(msg, c.Prefix)
	}
	return strings.HasPrefix(msg, c.Prefix)
}

// Cases returns the suite, in the order of the thesis's table where it has
// the case.
func Cases() []Case {
	return []Case{
		reorder("reorder_10", 9, 1, 11, 0),
		reorder("reorder_20", 10, 10, 21, 89),
		twostage("twostage_100", 99, 101, 792),
		wsq("WSQ", false, 161),
		wsq("IWSQ", true, 169),
		reorder("reorder_5", 4, 1, 6, 0),
		queueCase(),
		reorder("reorder_4", 3, 1, 5, 0),
		reorder("reorder_3", 2, 1, 4, 12),
		wronglock("wronglock", 7, 9, 49),
		wronglock("wronglock_3", 3, 5, 25),
		twostage("twostage", 1, 3, 11),
		deadlock01(),
		account(),
		circularBuffer(),
		stackCase(),
	}
}

// thread starts f as a goroutine and returns what join waits for: a channel
// closed when f returns, as pthread_join waits for the thread's exit.
func thread(f func()) *csync.Chan[struct{}] {
	done := csync.Make[struct{}](0)
	csync.Go(func() {
		defer done.Close()
		f()
	})
	return done
}

// join waits for the threads in order.
func join(ts []*csync.Chan[struct{}]) {
	for _, t := range ts {
		t.RecvOK()
	}
}
