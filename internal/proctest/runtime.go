package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// Every rewritten test binary links morpheus's controlled runtime (package
// rt and the packages it imports), which the go command compiles into its
// build cache once and finds there afterwards: but the parallel tests of a
// binary that build rewritten packages start their builds at once, and
// with rt not yet in the cache (after an edit of morpheus, or in a fresh
// checkout) each build compiled it, eight times over. StartRuntime builds
// it once, as the rewritten builds compile it (a package of a module that
// requires morpheus finds rt's compiled packages of morpheus's own build
// in the cache), and the tests wait for it (WaitRuntime) before their
// builds: one compile of rt for the binary, and nothing but a go build that
// finds everything cached when rt is in the cache already.

var rtBuild struct {
	once sync.Once
	done chan struct{}
}

// StartRuntime starts the build of package rt, in the background, from
// morpheus's source tree this package is part of.
func StartRuntime() {
	rtBuild.once.Do(func() {
		rtBuild.done = make(chan struct{})
		go func() {
			defer close(rtBuild.done)
			_, file, _, ok := runtime.Caller(0)
			if !ok {
				return
			}
			cmd := exec.Command("go", "build", "./rt")
			cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
			cmd.Env = append(os.Environ(), "GOWORK=off")
			// A failure is the tests' to report: their builds compile rt
			// as well, and say why.
			_ = cmd.Run()
		}()
	})
}

// WaitRuntime waits for the build StartRuntime started, if any.
func WaitRuntime() {
	if rtBuild.done != nil {
		<-rtBuild.done
	}
}
