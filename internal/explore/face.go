package explore

// What the runtime (package rt) and the benchmarks ask of a run beyond the
// API of package morpheus: a morpheus.Option is a func(*Config), so the
// options here are morpheus options, and a *morpheus.Result carries the
// driver's result, which ResultOf returns.

// CountHits is an option of morpheus.Explore: every iteration runs instead
// of the exploration stopping at the first failure, Result.Failures counts
// the failing iterations and Result.Hits those for which hit, given the
// failure's kind and message, returns true (the hit ratio of a bug
// benchmark, where only the scenario's intended failure counts). The
// reported failure is still the lowest failing iteration's, not shrunk
// unless morpheus.Shrink asks.
func CountHits(hit func(kind, message string) bool) func(*Config) {
	return func(c *Config) { c.Hit = hit }
}

// Heartbeat is an option of morpheus.Explore: the run appends progress
// lines to the file at path, as a sign of life of a rewritten test's long
// exploration (the morpheus command shows them once the test has run a
// while). It leaves coverage counting off unless asked for: the lines
// serve no figure of the test's result.
func Heartbeat(path string) func(*Config) {
	return func(c *Config) {
		c.Progress, c.Heartbeat = path, true
		if c.Coverage == 0 {
			c.Coverage = -1
		}
	}
}

// ResultOf returns the driver's result that res, a *morpheus.Result, was
// made of: its Failures, Hits and CA. Package morpheus sets it.
var ResultOf func(res any) *Result
