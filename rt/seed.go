package rt

import (
	"fmt"
	"strconv"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/explore"
)

// baseSeed returns the base seed the environment gives test name: EnvSeed
// if set (the driver has varied the user's -seed by process), else, with
// EnvJob, the seed of the test's name varied by the process, so that the
// driver's -jobs processes explore different schedules while every test
// keeps a seed of its own. ok is false if neither variable is set (the
// exploration derives the seed from the name).
func baseSeed(name string) (seed uint64, ok bool, err error) {
	if s := getenv(EnvSeed); s != "" {
		if seed, err = strconv.ParseUint(s, 0, 64); err != nil {
			return 0, false, fmt.Errorf("%s=%q: want a number", EnvSeed, s)
		}
		return seed, true, nil
	}
	if s := getenv(EnvJob); s != "" {
		j, err := strconv.Atoi(s)
		if err != nil || j < 0 {
			return 0, false, fmt.Errorf("%s=%q: want a process index", EnvJob, s)
		}
		return JobSeed(explore.BaseSeed(&explore.Config{Name: name}), j), true, nil
	}
	return 0, false, nil
}

// JobSeed is the base seed of process j among the driver's -jobs, from the
// base seed of the run (the user's -seed, or the test's name).
func JobSeed(base uint64, j int) uint64 {
	return core.Mix(base ^ core.Mix(uint64(j)+0x6a6f62))
}
