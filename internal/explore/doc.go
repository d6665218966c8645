// Package explore is the exploration driver behind package morpheus: it runs
// a test's iterations under the controlled scheduler (package core) and turns
// what they did into a result. Package morpheus is the face users write
// tests with; it fills a Config from its options, hands the test over as a
// Program, and converts the Result and Failure it gets back.
//
// The driver owns:
//
//   - the worker pool: iterations run on Config.Workers workers, iteration i
//     with a seed derived from the base seed and i alone (SeedFor), and the
//     reported failure is the lowest failing iteration's, so results do not
//     depend on the number of workers;
//   - learning: a strategy.Learner learns in deterministic epochs (learner);
//   - shards (Shard), the Duration budget (BudgetNow) and interrupts
//     (SIGINT/SIGTERM end a run gracefully, InterruptGrace);
//   - stuck recovery: a task that does not come back to the scheduler is
//     reported as uncontrolled blocking, with the trace up to the step
//     before it (stuck.go);
//   - replay of trace files, strict or lenient (ReplayFile), and the
//     explanation of a strict replay that diverged (stale trace or
//     nondeterminism, stale.go);
//   - shrinking a reported failure to a simpler schedule (shrink.go,
//     shrinkcut.go);
//   - coverage (distinct partial orders), progress lines and result files
//     (WriteResult), which morpheus test, merge, shrink and replay read.
package explore
