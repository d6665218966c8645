package driver

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strconv"
)

// ParseSeed reads a -seed flag: empty (0, from each test's name), a number, or
// "random" (a fresh seed, printed so that the run can be repeated).
func ParseSeed(s string) (uint64, error) {
	switch s {
	case "":
		return 0, nil
	case "random":
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint64(b[:]) | 1, nil
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("-seed %q: want a number or \"random\"", s)
	}
	return n, nil
}

// EarlyTimers turns an -earlytimers flag into Config.EarlyTimers: 0 is
// rt's default (none), a negative number the portfolio, N N.
func EarlyTimers(n int) int { return max(n, -1) }
