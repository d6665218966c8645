package core

import (
	"strings"
	"testing"
)

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
	if !strings.HasSuffix(goSrc, "/src/") {
		t.Fatalf("the standard library's source: %q", goSrc)
	}
	std := "goroutine 8 [IO wait]:\ninternal/poll.runtime_pollWait(0x1)\n\t" + goSrc + "runtime/netpoll.go:351 +0x85\n" +
		"os.(*File).Read(0xc0)\n\t" + goSrc + "os/file.go:144 +0x4f\nexample.com/p.TestX.func1()\n\t/home/u/p/x_test.go:22 +0x1a5\n"
	if got := StackLocation(std); got != "x_test.go:22" {
		t.Errorf("past the standard library: got %q, want x_test.go:22", got)
	}
	if got := StackLocation("goroutine 1 [running]:\nruntime.Goexit()\n\t/go/src/runtime/panic.go:1 +0x1\ncreated by example.com/p.f in goroutine 1\n\t/p/f.go:3 +0x1\n"); got != "" {
		t.Errorf("no user frame: got %q", got)
	}
}
