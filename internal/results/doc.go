// Package results keeps what one run of a morpheus test produced, as files
// that processes on other machines write and one tool merges: the result
// file of -morpheus.results, and the progress lines of -morpheus.progress.
//
// # Result files
//
// A result file holds JSON lines, one Record per Check: the test, its
// strategy and base seed, the shard of the iterations it ran ("i/N", or
// empty for all), the iterations, steps and failures counted, the partial
// orders seen (each with the lowest iteration that ran it), what conflict
// analysis learned, and the lowest failing iteration with its trace.
// Processes append whole lines with one write each, so the tests of a
// package, and packages tested at once, may share a file.
//
// Merge combines the records of the shards of one run into the record of
// the whole run: sums of iterations, steps and failures, the union of the
// partial orders (lowest iteration first), the union of the conflict tables,
// the lowest failure. For a strategy that does not learn across iterations it
// equals the record of the unsharded run with the same seed, but for the wall
// time, which is the longest shard's.
//
// # Coverage
//
// Coverage is counted in distinct partial orders (hb.PartialOrder); the
// curve samples, at up to a given number of points, how many were seen among
// the first n iterations. It is a function of the set of (partial order,
// first iteration) pairs, which is what makes it mergeable.
//
// # Progress
//
// A test binary reports progress as JSON lines (Progress) appended every so
// many iterations, or when an iteration ends a couple of seconds after the
// last line; never on a timer, so reporting cannot influence what the
// iterations do. The morpheus command follows the file and draws its
// progress line from it.
//
// # Interrupts
//
// A Check stopped early by SIGINT or SIGTERM still writes its record, with
// "interrupted": true (Record.Interrupted) and the iterations it completed;
// its last progress line says so too. A merged record is interrupted if
// one of its shards was.
package results
