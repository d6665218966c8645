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

// scheduleCount is the number of schedules EnvSchedules asks for (options
// has checked it).
func scheduleCount() int {
	if n, err := strconv.Atoi(getenv(EnvSchedules)); err == nil {
		return n
	}
	return 100
}
