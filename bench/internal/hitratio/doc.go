// Package hitratio is the harness of morpheus's bug benchmarks (bench bugs,
// bench sct, bench raft): it explores every case under every strategy,
// counts the iterations that hit the case's bug, and prints the hit ratios
// as tables, side by side with published figures, or as JSON.
//
// # Running
//
// Run takes cases (a test, the predicate that recognises its intended
// failure, and the options it needs) and strategies, and fills a Matrix of
// Cells, one per case and strategy: hits, failures, iterations, the wall
// time to the first hit, the lowest hitting iteration, the lowest failing
// iteration's failure and what conflict analysis saw. Every cell's seed
// comes from Config.Seed, never from the clock, so the counts do not depend
// on the number of workers or on the machine.
//
// # Geometric means and their floor
//
// A suite's summary is, per strategy, the geometric mean of its hit ratios
// over the cases. A ratio measured over n trials cannot tell anything below
// 1/n from zero, and a zero would make the mean zero. Geomean therefore
// counts every ratio below a floor as the floor, with one convention
// everywhere:
//
//   - the floor is 1/n, n the number of trials behind the figures the mean
//     covers (Floor), so a case never hit counts as 1/n, as in the POS
//     thesis (which ran 10,000 trials and counted a miss as 1/10,000);
//   - when figures measured with different numbers of trials are compared
//     (a paper's beside ours, SideBySide), both sides are floored at the
//     same value, 1/n for the smaller n: neither side can resolve less, and
//     the geo-means are comparable;
//   - a figure computed exactly rather than sampled has no floor of its own
//     (Floor with no trial count is 0);
//   - the geometric mean of no figures is NaN, printed as N/A and left out
//     of JSON.
//
// Each table says its floor under it.
package hitratio
