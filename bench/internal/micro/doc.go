// Package micro is the micro benchmark of partial order sampling (Yuan's
// thesis §3.6.1, Tables 3.1 and 3.2): small random straight-line programs
// whose partial orders can be counted exactly, on which the exploration
// strategies are measured by how evenly they sample those partial orders.
//
// # Programs
//
// A program has n threads of m events; every event reads or writes one of o
// objects. Two events of different threads depend on each other (conflict)
// when they access the same object and at least one writes it; events of one
// thread are ordered by program order. An event may also wait for an event of
// another thread (as a wait on a signal), which the thesis's running example
// needs and the generated programs do not use.
//
// # Partial orders
//
// Two schedules are equivalent (the same Mazurkiewicz trace, the same partial
// order) exactly when they order every pair of dependent events the same way.
// A schedule's canonical form is therefore a bit mask with one bit per pair
// of dependent events of different threads, set when the lower-numbered event
// of the pair ran first: the generated programs have at most 32 such pairs,
// and this package accepts up to 64. Analyze counts the distinct masks
// exactly, with the probability of each under random walk; it merges schedule
// prefixes that are the same partial order, which gives the same results as
// enumerating every total order depth first (the definition, against which
// the tests check it) in a small fraction of the time (BenchmarkAnalyze;
// BENCHMARKS.md has the figures).
//
// # Coverage
//
// Exec drives a strategy.Strategy through a program: every event is an op of
// its thread's task with resource object+1, a read or a write, so the very
// strategy code that schedules real tests runs here, as fast as it can
// (BenchmarkExec measures an iteration; BENCHMARKS.md has the figures). The
// coverage of a strategy is the minimum over the partial orders of
// the fraction of samples that hit it: the probability, estimated, of its
// worst-covered behaviour.
package micro
