package rt

import (
	"os"
	"strings"
	"sync"

	"github.com/morpheus-go/morpheus/internal/procenv"
)

// envPrefix begins the name of every setting the driver hands a test
// process for its rewritten tests (EnvSchedules, EnvOut, EnvCorpus, …).
const envPrefix = "MORPHEUS_RT_"

// When a rewritten test binary starts, the settings the morpheus command
// handed it (MORPHEUS_RT_* for its rewritten tests, MORPHEUS_* for its
// Checks) are taken out of its environment (procenv), so that a child
// process a test starts does not inherit them: a test that re-runs its own
// binary (exec.Command(os.Args[0], "-test.run=TestCrasher"), the usual test
// of a crash) would otherwise run a child that appends its results to the
// parent's (its intended crash reported as the parent's failure) and saves
// traces into the parent's corpus. Such a child is a plain run of its test
// (see Test). MORPHEUS_STACKS, a preference of the user's, stays.
//
// Only a binary that holds rewritten code gives them up: every rewritten
// file calls Rewritten when it is initialised, which calls takeSettings.
// The morpheus command links rt too, and keeps its environment for the
// test processes it starts.
var takeOnce sync.Once

func takeSettings() {
	takeOnce.Do(func() {
		procenv.Take(func(k string) bool { return strings.HasPrefix(k, "MORPHEUS_") && k != "MORPHEUS_STACKS" })
	})
}

// getenv returns the setting k: the environment's if it is set now (a test
// of rt's own sets it), else the one the process started with.
func getenv(k string) string {
	v, _ := procenv.Lookup(k)
	return v
}

// plainRun reports whether the process started without any of the driver's
// settings for rewritten tests: a plain run of its tests (see Test).
func plainRun() bool {
	if procenv.Taken(func(k string) bool { return strings.HasPrefix(k, envPrefix) }) {
		return false
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, envPrefix) {
			return false // set since (a test of rt's own)
		}
	}
	return true
}
