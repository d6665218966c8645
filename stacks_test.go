package morpheus

import (
	"strings"
	"testing"
)

func TestUserStack(t *testing.T) {
	stack := `goroutine 7 [running]:
runtime/debug.Stack()
	/go/src/runtime/debug/stack.go:26 +0x5e
github.com/morpheus-go/morpheus/internal/core.(*Task).recovered(0xc000)
	/m/internal/core/task.go:210 +0x1
panic({0x5, 0x6})
	/go/src/runtime/panic.go:783 +0x132
example.com/bank.(*Account).Withdraw(...)
	/src/bank/bank.go:17
github.com/morpheus-go/morpheus/rt_test.checkSame(0x1)
	/m/rt/fatal_test.go:20 +0x2
github.com/morpheus-go/morpheus/rt.Test.func1(0xc0)
	/m/rt/test.go:120 +0x3
github.com/morpheus-go/morpheus/internal/explore.(*explorer).run(0x1)
	/m/internal/explore/explore.go:300 +0x3
github.com/morpheus-go/morpheus/internal/systems/storage.server(0x1)
	/m/internal/systems/storage/server.go:3 +0x3
iter.Pull[...].func1()
	/go/src/iter/iter.go:1 +0x3
testing.tRunner(0xc0, 0x1)
	/go/src/testing/testing.go:1 +0x3
created by iter.Pull[...] in goroutine 6
	/go/src/iter/iter.go:70 +0x12f

goroutine 9 [chan receive]:
example.com/bank.audit()
	/src/bank/audit.go:5 +0x1
created by example.com/bank.Start in goroutine 7
	/src/bank/bank.go:30 +0x2
`
	t.Setenv(envStacks, "")
	got := userStack(stack)
	want := `goroutine 7 [running]:
example.com/bank.(*Account).Withdraw(...)
	/src/bank/bank.go:17
github.com/morpheus-go/morpheus/rt_test.checkSame(0x1)
	/m/rt/fatal_test.go:20 +0x2
github.com/morpheus-go/morpheus/internal/systems/storage.server(0x1)
	/m/internal/systems/storage/server.go:3 +0x3

goroutine 9 [chan receive]:
example.com/bank.audit()
	/src/bank/audit.go:5 +0x1
created by example.com/bank.Start in goroutine 7
	/src/bank/bank.go:30 +0x2
(8 frames of morpheus and the Go runtime left out; MORPHEUS_STACKS=1 shows them)`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	t.Setenv(envStacks, "1")
	if got := userStack(stack); got != stack {
		t.Errorf("MORPHEUS_STACKS=1 changed the stack:\n%s", got)
	}
	if f := (&Failure{Kind: "panic", Message: "boom", Stack: stack}); !strings.Contains(f.report(false, ""), "internal/core") {
		t.Errorf("MORPHEUS_STACKS=1: the report leaves frames out")
	}
}
