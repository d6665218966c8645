// Package sct is the shared-memory bug suite: small SCTBench-style programs
// (the benchmark of Yuan's thesis §3.6.2, Table 3.3) written with package
// csync, on which the exploration strategies are measured by how often they
// hit each program's bug.
//
// # Cases
//
// Every case is a buggy program, a fixed variant, and a hit predicate: an
// iteration hits when it fails with the case's intended failure (its kind,
// and a message that names the case), not with any other failure. The
// programs, reorder_N, twostage, twostage_100, account, wronglock,
// wronglock_3, deadlock01, circular_buffer, queue, stack, WSQ and IWSQ, are
// specified in docs/bug-suite.md in the repository. As in the originals, the
// main task creates the threads and joins them; shared state that the program
// accesses without a common lock is a csync.Var (every access an op), state
// that one mutex guards everywhere is plain Go memory, whose accesses the
// lock already orders.
//
// # Measuring
//
// Run explores each case for a number of trials with each strategy and
// counts hits with explore.CountHits; the hit ratio is hits/trials. The
// summary is the geometric mean over the cases, counting a case that was
// never hit as 1/trials, as the thesis does (package hitratio's convention;
// beside the thesis's figures, WriteTable floors both sides at 1 over the
// smaller number of trials, the thesis's 10,000 or ours, so that their
// geo-means compare). Every iteration's seed derives
// from the case, the strategy and the iteration number, so a report does not
// depend on the number of workers.
//
// # Thread creation
//
// csync.Go's spawn and the new goroutine's start are steps of the trace but
// no decision of a strategy: they touch nothing another goroutine sees, so
// every built-in strategy runs them at once (strategy.Local). pthread_create
// is a scheduling point under Maple, which the thesis used; BENCHMARKS.md
// measures what making spawns decisions again does to these cases.
//
// # Plain Go
//
// The same cases are written a second time as plain Go, as a user would
// write them (testdata/plain, module sctplain: plain variables and fields,
// sync.Mutex, sync.WaitGroup, go statements, sync/atomic in IWSQ), each an
// ordinary test TestXxx beside TestXxxFixed (PlainTests). morpheus bench
// sct -plain builds them once through the rewrite driver, under which every
// access to shared memory, lock, WaitGroup call and atomic is an op, and
// runs them in counting mode (rt.EnvCount) beside this suite.
//
// The fixed variants must never fail: Run with Fixed counts every failure,
// of any kind, as a hit, so a non-zero ratio there is a bug in the case (or in
// morpheus), never a finding.
package sct
