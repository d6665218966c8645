// Package clitest holds morpheus tests for the CLI's script tests (testdata/
// script/test.txt and others) to run through "go test". They run only when
// MORPHEUS_CLITEST is set, so that go test ./... does not fail on the bug
// they contain on purpose. When it names a directory, they run in it, so
// their saved traces (testdata/morpheus/...) go there, not into the source
// tree.
package clitest

import (
	"os"
	"testing"

	"github.com/morpheus-go/morpheus"
)

func only(t *testing.T) {
	if os.Getenv("MORPHEUS_CLITEST") == "" {
		t.Skip("a test for the morpheus command's script tests; set MORPHEUS_CLITEST=1 to run it")
	}
	if dir := os.Getenv("MORPHEUS_CLITEST"); dir != "1" {
		t.Chdir(dir)
	}
}

// TestLostUpdate has a lost update: two clients read, then write, a counter.
// With MORPHEUS_CLITEST_FIXED set, the bug is fixed: the clients ask the
// counter to increment, and the traces saved before no longer apply.
func TestLostUpdate(t *testing.T) {
	only(t)
	fixed := os.Getenv("MORPHEUS_CLITEST_FIXED") != ""
	morpheus.Check(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		counter := n.Spawn("counter", func(e *morpheus.Env) {
			v := 0
			for {
				switch m := e.Receive(nil).(type) {
				case int:
					v = m
				case string:
					v++
				case morpheus.PID:
					e.Send(m, v)
				}
			}
		})
		main := e.Self()
		for range 2 {
			n.Spawn("client", func(e *morpheus.Env) {
				if fixed {
					e.Send(counter, "increment")
					e.Send(main, "done")
					return
				}
				e.Send(counter, e.Self())
				e.Send(counter, morpheus.Recv[int](e)+1)
				e.Send(main, "done")
			})
		}
		morpheus.Recv[string](e)
		morpheus.Recv[string](e)
		e.Send(counter, main)
		e.Assert(morpheus.Recv[int](e) == 2, "lost update")
	}, morpheus.Strategy("random"))
}

// TestPingPong passes: a process answers every ping.
func TestPingPong(t *testing.T) {
	only(t)
	morpheus.Check(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		pong := n.Spawn("pong", func(e *morpheus.Env) {
			for range 3 {
				morpheus.Recv[string](e)
				e.Send(main, "pong")
			}
		})
		for range 3 {
			n.Spawn("pinger", func(e *morpheus.Env) { e.Send(pong, "ping") })
		}
		for range 3 {
			morpheus.Recv[string](e)
		}
	}, morpheus.Strategy("random"))
}

// TestRare fails only when two choices come out 3 and 5: in about one
// iteration in 64, so a run finds it some iterations in.
func TestRare(t *testing.T) {
	only(t)
	morpheus.Check(t, func(e *morpheus.Env) {
		a, b := e.Choose(8), e.Choose(8)
		e.Assert(a != 3 || b != 5, "rare pair %d, %d", a, b)
	}, morpheus.Strategy("random"))
}
