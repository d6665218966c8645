// Package report writes the HTML report of a morpheus run: one
// self-contained file (style and script embedded, no network needed) that
// shows the run's statistics, its coverage of distinct partial orders over the
// iterations, and, when the run failed, the failure and a sequence diagram of
// the failing trace.
//
// A failure leads with its key events (trace.Highlights: crashes, restarts,
// partitions, the last change of a monitor still hot, the last progress
// before the run repeated one cycle to its end) and, for a deadlock, its
// wait-for cycle: which task holds which lock and waits for which, then
// every blocked task, read from the failure message the console prints.
// Resources are named as the console names them, kind#N and where the
// object was created or first used ("mutex#5 bank.go:17"). Seeds are hex,
// as on the console: the run's base seed and the failing iteration's own.
//
// The sequence diagram has a lane per task; time (the step number) runs down.
// A message is an arrow from the step that sent it to the step that received
// it; crashes (on the crashing task's lane and on each task the crash
// killed), restarts, time-outs and dropped messages are marked; the steps
// that conflict analysis finds racing (hb.ConflictPairs), and whose order
// therefore could have decided the outcome, are highlighted, and a table lists
// the pairs, one row per pair of code locations. A data race's location is
// named as its message names it ("c.m"), on the resources of both its
// accesses: a plain one's and an atomic's. A deadlock's blocked ops,
// which never ran and so are no steps, are ringed on a row of their own below
// the steps, with an arrow from each to the tasks holding what it waits for.
// A run repeating one cycle (trace.Folds) is folded: its first and last
// cycles are drawn, a band stands for the rest. Labels are cut between words.
// Every step also appears in a table below the diagram, linked to its mark in
// the diagram: hovering either highlights both.
//
// Write is deterministic: the same Data gives the same bytes.
package report
