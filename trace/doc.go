// Package trace holds the record of one test iteration: which task ran which
// operation (op) at every step, with what outcome, so that the iteration can be
// rendered for a human, saved to a file, and replayed exactly.
//
// # Model
//
// An iteration is a sequence of events. Most events are steps: one op of one
// task, chosen by the exploration strategy among the enabled ops. A few events
// are not choices but facts the runtime records for readers and for replay
// checks, such as a jump of the virtual clock (KindClock).
//
// Tasks are numbered in creation order within the iteration; task 0 is the
// test's main task. The Tasks table gives each task its name, its parent and a
// key that is stable across iterations (its creation path or a user-given
// name), which conflict analysis uses as part of an op's signature.
//
// # Locations
//
// In memory an event's Loc is a program counter, cheap to capture at every op.
// Where maps a Loc to "file:line" text; a trace that leaves the process
// (Encode) carries the text, and a decoded trace numbers its locations itself.
//
// # File format
//
// Encode writes a versioned, line-oriented text format; Decode reads it back and
// names the line and the field of any malformed input. See format.go.
package trace
