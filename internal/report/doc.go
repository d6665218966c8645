// Package report writes the HTML report of a morpheus run: one
// self-contained file (style and script embedded, no network needed) that
// shows the run's statistics, its coverage of distinct partial orders over the
// iterations, and, when the run failed, the failure and a sequence diagram of
// the failing trace.
//
// The sequence diagram has a lane per task; time (the step number) runs down.
// A message is an arrow from the step that sent it to the step that received
// it; crashes, restarts, time-outs and dropped messages are marked; the steps
// that conflict analysis finds racing (trace.Conflicts), and whose order
// therefore could have decided the outcome, are highlighted, and a table lists
// the pairs. Every step also appears in a table below the diagram, linked to
// its mark in the diagram: hovering either highlights both.
//
// Write is deterministic: the same Data gives the same bytes.
package report
