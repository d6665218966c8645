package morpheus

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/results"
)

// shard is the part of a run's iterations that this process runs: those
// whose number is I modulo N. The zero value runs them all.
type shard struct{ I, N int }

// Shard makes Check and Explore run only part i of n (from 0) of the
// iterations: those whose number is i modulo n, each with the seed it has in
// the whole run, so n processes, on as many machines, together run exactly
// the iterations of one unsharded run. Iterations still counts the whole
// run's iterations. Each shard's result (the -morpheus.results file) merges
// with the others' (morpheus merge) into the whole run's.
//
// A strategy that learns across iterations (conflict analysis, "+ca"; PCT
// estimating its step bound) learns in each shard only from that shard's
// iterations, so its schedules differ from an unsharded run's; share what
// shards learn through CATable.
func Shard(i, n int) Option { return func(c *config) { c.shard = shard{I: i, N: n} } }

// parseShard parses "i/N".
func parseShard(s string) (shard, error) {
	i, n, err := results.ParseShard(s)
	return shard{I: i, N: n}, err
}

// iteration returns the number, in the whole run, of the shard's j-th
// iteration.
func (s shard) iteration(j int64) int64 {
	if s.N <= 1 {
		return j
	}
	return j*int64(s.N) + int64(s.I)
}

// String returns "i/N", or "" for the whole run.
func (s shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}
