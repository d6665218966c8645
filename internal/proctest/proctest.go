// Package proctest is for the test binaries whose tests spend their time
// waiting for processes they start (go build, the morpheus command, test
// processes of rewritten packages) rather than computing: go test runs
// their parallel tests GOMAXPROCS at a time (its -parallel default, meant
// for tests that compute), two on a 2-core machine, so that a binary of
// twenty such tests waited for them two by two, and under a heavy load came
// near go test's 10-minute time-out.
package proctest

import (
	"flag"
	"runtime"
	"strconv"
)

// Parallel is how many parallel tests such a binary runs at once unless
// the command line gives -parallel.
const Parallel = 8

// Main is the start of such a binary's TestMain, before m.Run: it sets go
// test's -parallel to Parallel, unless the command line gave -parallel or
// GOMAXPROCS is larger.
func Main() {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if n := parallelism(given, runtime.GOMAXPROCS(0)); n > 0 {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// parallelism is the -parallel to set, 0 to leave it: given is whether the
// command line set it, procs is GOMAXPROCS (go test's default).
func parallelism(given bool, procs int) int {
	if given || procs >= Parallel {
		return 0
	}
	return Parallel
}
