package morpheus

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// A failure's stack (a panic's, a goroutine blocked outside control) runs
// through morpheus's scheduler and Go's runtime before it reaches the
// user's code. Reports show the user's frames only; MORPHEUS_STACKS=1 (or
// true) shows every frame.

// envStacks names the environment variable that keeps whole stacks.
const envStacks = "MORPHEUS_STACKS"

// modulePrefix is the prefix of the functions of morpheus's packages.
const modulePrefix = "github.com/morpheus-go/morpheus/"

// userStack returns stack without the frames of morpheus's own packages
// and of Go's runtime, with a line that says how many it left out, unless
// MORPHEUS_STACKS asks for them.
func userStack(stack string) string {
	if all, _ := strconv.ParseBool(os.Getenv(envStacks)); all {
		return stack
	}
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	var out []string
	left := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		frame := !strings.HasPrefix(l, "\t") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t")
		if !frame {
			out = append(out, l)
			continue
		}
		if internalFrame(l) {
			left++
		} else {
			out = append(out, l, lines[i+1])
		}
		i++ // its file:line
	}
	if left == 0 {
		return stack
	}
	out = append(out, fmt.Sprintf("(%d frames of morpheus and the Go runtime left out; %s=1 shows them)", left, envStacks))
	return strings.Join(out, "\n")
}

// internalFrame reports whether a stack line naming a function (such as
// "github.com/morpheus-go/morpheus/internal/core.(*Run).Do(...)", or
// "created by iter.Pull[...] in goroutine 6") is one
// of morpheus's packages or of Go's runtime (panic, iter, testing,
// internal/...). The tests, examples and subject systems (internal/systems)
// of morpheus's module, and the benchmarks (the bench module), are user code.
func internalFrame(fn string) bool {
	// A goroutine's last frame names the function whose go statement
	// started it: "created by iter.Pull[...] in goroutine 6" for a task's
	// carrier, morpheus's machinery as much as the frames above it.
	fn = strings.TrimPrefix(fn, "created by ")
	for _, p := range []string{"runtime.", "runtime/", "iter.", "testing.", "internal/", "panic("} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	if strings.HasPrefix(fn, "github.com/morpheus-go/morpheus.") {
		return true // the root package
	}
	rest, ok := strings.CutPrefix(fn, modulePrefix)
	if !ok {
		return false
	}
	pkg, _, _ := strings.Cut(rest, ".")
	return !strings.HasSuffix(pkg, "_test") && !strings.HasPrefix(pkg, "examples/") && !strings.HasPrefix(pkg, "internal/systems/") && !strings.HasPrefix(pkg, "bench/")
}
