package explore

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/results"
)

// Shard is the part of a run's iterations that this process runs: those
// whose number is I modulo N. The zero value runs them all.
type Shard struct{ I, N int }

// ParseShard parses "i/N".
func ParseShard(s string) (Shard, error) {
	i, n, err := results.ParseShard(s)
	return Shard{I: i, N: n}, err
}

// index returns j such that iteration(j) is i, an iteration of the shard.
func (s Shard) index(i int64) int64 {
	if s.N <= 1 {
		return i
	}
	return (i - int64(s.I)) / int64(s.N)
}

// iteration returns the number, in the whole run, of the shard's j-th
// iteration.
func (s Shard) iteration(j int64) int64 {
	if s.N <= 1 {
		return j
	}
	return j*int64(s.N) + int64(s.I)
}

// String returns "i/N", or "" for the whole run.
func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// share returns how many of a run's first total iterations are the
// shard's (total itself for the whole run, or 0 for a time budget).
func (s Shard) share(total int) int {
	if s.N <= 1 || total <= 0 {
		return total
	}
	if total <= s.I {
		return 0
	}
	return (total - s.I + s.N - 1) / s.N
}
