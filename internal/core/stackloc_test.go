package core

import "testing"

func TestStackLocation(t *testing.T) {
	const stack = `goroutine 7 [chan receive]:
github.com/morpheus-go/morpheus/internal/core.(*Run).park(0xc000)
	/src/morpheus/internal/core/sched.go:10 +0x1
example.com/p.wait(...)
	/home/u/p/wait.go:12
example.com/p.TestX.func1()
	/home/u/p/wait_test.go:30 +0x2
created by example.com/p.TestX in goroutine 6
	/home/u/p/wait_test.go:29 +0x3
`
	if got := StackLocation(stack); got != "wait.go:12" {
		t.Errorf("got %q, want wait.go:12", got)
	}
	if got := StackLocation("goroutine 1 [running]:\nruntime.Goexit()\n\t/go/src/runtime/panic.go:1 +0x1\ncreated by example.com/p.f in goroutine 1\n\t/p/f.go:3 +0x1\n"); got != "" {
		t.Errorf("no user frame: got %q", got)
	}
}
