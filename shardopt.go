package morpheus

import "github.com/morpheus-go/morpheus/internal/explore"

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
func Shard(i, n int) Option { return func(c *config) { c.Shard = explore.Shard{I: i, N: n} } }
