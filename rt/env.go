package rt

import (
	"os"
	"strings"
)

// envPrefix begins the name of every setting the driver hands a test
// process (EnvSchedules, EnvOut, EnvCorpus, …).
const envPrefix = "MORPHEUS_RT_"

// settings are the process's MORPHEUS_RT_ variables as it started. They are
// read once, when rt is initialised, and removed from the environment, so
// that a child process a test starts does not inherit them: a test that
// re-runs its own binary (exec.Command(os.Args[0], "-test.run=TestCrasher"),
// the usual test of a crash) would otherwise run a child that appends its
// results to the parent's (its intended crash reported as the parent's
// failure) and saves traces into the parent's corpus. Such a child is a
// plain run of its test (see Test).
var settings = takeSettings()

func takeSettings() map[string]string {
	m := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, envPrefix) {
			m[k] = v
			os.Unsetenv(k)
		}
	}
	return m
}

// getenv returns the setting k: the environment's if it is set now (a test
// of rt's own sets it), else the one the process started with.
func getenv(k string) string {
	if v, ok := os.LookupEnv(k); ok {
		return v
	}
	return settings[k]
}

// plainRun reports whether the process started without any of the driver's
// settings: a plain run of its tests (see Test).
func plainRun() bool {
	if len(settings) > 0 {
		return false
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, envPrefix) {
			return false // set since (a test of rt's own)
		}
	}
	return true
}
