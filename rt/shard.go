package rt

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/results"
)

// envShard is the driver's "k/M" for one of its test processes: the process
// runs, of every rewritten test, the schedules whose number is k modulo M
// (morpheus.Shard), and of every morpheus.Check the iterations whose number
// is k modulo M. Schedule i has the same seed in every process, derived
// from the test's base seed (its name's, or EnvSeed) and i alone, so M
// processes, on one machine (-jobs) or many (-shard), together run exactly
// the schedules of one process running them all. EnvSchedules still counts
// the schedules of the whole run.
const envShard = "MORPHEUS_SHARD"

// processShard returns the process's shard, k/M, or 0/1 when it has none.
func processShard() (k, m int, err error) {
	s := getenv(envShard) // taken from the environment at start (env.go)
	if s == "" {
		return 0, 1, nil
	}
	if k, m, err = results.ParseShard(s); err != nil {
		return 0, 0, fmt.Errorf("%s=%q: %v", envShard, s, err)
	}
	return k, m, nil
}

// shardOptions returns the option that runs the process's shard of a
// test's schedules, none for a process that runs them all.
func shardOptions() ([]morpheus.Option, error) {
	k, m, err := processShard()
	if err != nil || m <= 1 {
		return nil, err
	}
	return []morpheus.Option{morpheus.Shard(k, m)}, nil
}

// shardShare is how many of the schedules 0..n-1 the shard k/m runs.
func shardShare(n, k, m int) int {
	if n <= k {
		return 0
	}
	return (n-k-1)/m + 1
}
