package driver

import "testing"

// The fatal panic of a process's output: the test it is framed in, its
// line, and the first frame of the program (not Go's, not morpheus's).
func TestFindCrash(t *testing.T) {
	out := "\x16=== RUN   TestA\n" +
		"    a_test.go:9: morpheus: runs once on the real network and real time, not under control: io.Pipe at a_test.go:8\n" +
		"panic: send on closed channel\n\ngoroutine 10 [running]:\n" +
		"reflect.rselect({0x2e324323bb10, 0x2, 0x2e324323bac0?})\n\t/usr/local/go/src/runtime/select.go:616 +0x3cd\n" +
		"github.com/morpheus-go/morpheus/rt.Select(0x0, {0x2e324323bed8, 0x2, 0x2})\n\t/m/rt/select.go:127 +0x645\n" +
		"example.com/app/transport.(*handler).do(0x2e324334c5a0, 0x2e3243202460)\n\t/src/app/transport/handler.go:170 +0x1b5\n" +
		"created by github.com/morpheus-go/morpheus/rt.Go in goroutine 7\n\t/m/rt/go.go:22 +0x57\n"
	cr, ok := findCrash(out)
	if !ok || cr.test != "TestA" || cr.line != "panic: send on closed channel" || cr.location != "handler.go:170" {
		t.Errorf("findCrash = %+v, %v", cr, ok)
	}
	if _, ok := findCrash("\x16=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n"); ok {
		t.Error("a crash in a clean run")
	}
}
