package rt

import (
	"fmt"
	"strconv"
)

// counting reports whether Test runs in counting mode (EnvCount); never
// while replaying.
func counting(replay string) (bool, error) {
	s := getenv(EnvCount)
	if s == "" || replay != "" {
		return false, nil
	}
	on, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", EnvCount, s)
	}
	return on, nil
}

// scheduleCount is the number of schedules EnvSchedules asks for of this
// process, its shard's share of them (options has checked both).
func scheduleCount() int {
	n := DefaultSchedules
	if v, err := strconv.Atoi(getenv(EnvSchedules)); err == nil {
		n = v
	}
	k, m, _ := processShard()
	return shardShare(n, k, m)
}
