// Package store keeps a fuzzing campaign on disk: a campaign file (the
// command and options, written once) and a chain of deltas, each holding only
// what is new since the previous save — new events, new unordered pairs, new
// growth points, the runs finished meanwhile with their traces and the holds
// the time-out let go in them (the events each starved) — plus the counters
// and the planner's cursor as of the save.
//
// Deltas are gzip-compressed text lines (format in delta.go) and are written
// crash-safely: to a temporary file, fsynced, renamed into place, the
// directory fsynced; then the HEAD file, which names the last complete delta,
// is replaced the same way. A campaign killed at any moment (kill -9) reloads
// up to the last HEAD and so loses at most the runs of one save interval; a
// delta written after HEAD is ignored and overwritten.
package store
