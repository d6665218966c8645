package rt

import "testing"

// A goroutine of morpheus's is known by its frames; one that is ending has
// the runtime's frames only left, and is known by its go statement then.
// A goroutine of the program's is never morpheus's, whoever started it.
func TestMorpheusGoroutine(t *testing.T) {
	for _, c := range []struct {
		name, stack string
		want        bool
	}{
		{"running", "goroutine 7 [select]:\ngithub.com/morpheus-go/morpheus/internal/core.watch(0x1)\n\t/m/internal/core/watchdog.go:60 +0x1\ncreated by github.com/morpheus-go/morpheus/internal/core.StartWatchdog in goroutine 6\n\t/m/internal/core/watchdog.go:50 +0xdc\n", true},
		{"ending", "goroutine 193 [runnable]:\nruntime.goexit1()\n\t/go/src/runtime/proc.go:4475 +0x9b\nruntime.goexit({})\n\t/go/src/runtime/asm_amd64.s:1772 +0x6\ncreated by github.com/morpheus-go/morpheus/internal/core.StartWatchdog in goroutine 191\n\t/m/internal/core/watchdog.go:50 +0xdc\n", true},
		{"the program's, started by morpheus", "goroutine 9 [chan receive]:\nexample.com/m.worker()\n\t/m/m.go:10 +0x1\ncreated by github.com/morpheus-go/morpheus/internal/core.(*Run).Go in goroutine 1\n\t/m/internal/core/run.go:5 +0x1\n", false},
		{"the program's, ending", "goroutine 10 [runnable]:\nruntime.goexit1()\n\t/go/src/runtime/proc.go:4475 +0x9b\ncreated by example.com/m.start in goroutine 1\n\t/m/m.go:3 +0x1\n", false},
	} {
		if got := morpheusGoroutine(c.stack); got != c.want {
			t.Errorf("%s: morpheusGoroutine = %v, want %v", c.name, got, c.want)
		}
	}
}
