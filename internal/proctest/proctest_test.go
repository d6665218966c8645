package proctest

import (
	"flag"
	"testing"
)

func TestParallelism(t *testing.T) {
	for _, c := range []struct {
		given       bool
		procs, want int
	}{
		{false, 2, Parallel},
		{true, 2, 0},   // -parallel on the command line wins
		{false, 16, 0}, // go test's default is already larger
		{false, Parallel, 0},
	} {
		if got := parallelism(c.given, c.procs); got != c.want {
			t.Errorf("parallelism(%v, %d) = %d, want %d", c.given, c.procs, got, c.want)
		}
	}
}

// The flag Main sets is go test's: this binary has it.
func TestParallelFlagExists(t *testing.T) {
	if flag.Lookup("test.parallel") == nil {
		t.Fatal("no -test.parallel flag")
	}
}

// WaitRuntime returns at once when no build was started, and after the
// build otherwise; StartRuntime starts one build however often it is
// called.
func TestRuntimeBuildOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	WaitRuntime() // none started: returns
	StartRuntime()
	first := rtBuild.done
	StartRuntime()
	if rtBuild.done != first {
		t.Fatal("a second StartRuntime started another build")
	}
	WaitRuntime()
	select {
	case <-first:
	default:
		t.Fatal("WaitRuntime returned before the build ended")
	}
}
