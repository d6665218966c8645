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
//
// A file is UTF-8 text, one item a line:
//
//	morpheus-trace 1
//	test TestStorage
//	strategy random
//	seed 12345
//	iteration 17
//	options earlytimers=2 maxsteps=50000
//	ran TestSetup seed=991 schedules=100
//	ran TestStorage seed=12345 schedules=17
//	failure assertion task=3 step=57 at="server.go:41" msg="replica count 3 but only 2 distinct"
//	task 0 parent=-1 key=0x1f2e name="main"
//	task 1 parent=0 key=0x3a name="server@n1"
//	s 1 t0 start
//	s 2 t0 spawn obj=1 at="storage_test.go:41"
//	s 3 t0 send obj=1 val=0 at="storage_test.go:44" msg="main.ClientReq{Data:3}"
//	clock 1500000000
//	s 4 t1 recv obj=0 val=0 flags=timeout at="server.go:20"
//	end
//
// The header lines come first, in this order; strategy is absent when empty,
// options when there are none, ran (one line per run, see below) when
// nothing ran before, and failure when the iteration passed. The test, strategy and failure kind
// are written bare when they are one plain word, else as Go-quoted strings.
// Other fields are key=value, in any order, with strings always Go-quoted;
// an unknown or repeated key is an error. The failure line's limit (in ns),
// present only in a trace that shrinking cut short, is the clock limit the
// iteration is replayed with.
//
// The options line holds the settings that shaped the schedule beyond its
// strategy and seed (Header.Options), name=value each, names of lower-case
// letters and digits, in sorted order, values bare when they are one plain
// word, else Go-quoted: the step limit (maxsteps), early timers
// (earlytimers), allowed leaks and races (allowleaks, allowraces), the
// instant the virtual clock starts at (epoch, RFC 3339), and how
// the test ran (mode=rewritten for an ordinary test that morpheus test
// rewrote). A replay applies them. The line was added to version 1 of the
// format; a decoder that predates it rejects it by its keyword, and reads
// every trace without it.
//
// The ran lines (Header.Ran), one per run and in the order of the runs, say
// what the process that recorded the trace ran before this iteration, since
// package-level state (caches, free lists, a library's global settings)
// outlives an iteration: "ran TEST seed=N schedules=N" for an exploration
// that ran the schedules numbered below schedules (with shard=K/M, those
// of shard K of M), with strategy= (quoted) when the process was given
// one, then shrink= candidate schedules of shrinking after its failure; or
// "ran TEST replay=Q" for the replay of a saved trace (its path relative to
// the package's directory); or "ran TEST real=Q" for a test's one run on
// the real network and real time, not under control (Q says what it
// reached; added after the others: a decoder that predates real= rejects
// the line by its key). The last ones are of the trace's own test: its
// replays and the schedules before this iteration (of a shrunk trace, the
// failing schedule too and the candidates shrinking ran before it). A replay that diverges
// alone re-runs them first. The lines were added to version 1 of the
// format; a decoder that predates them rejects them by their keyword, and
// reads every trace without them.
//
// A task line per task follows, in ID order from 0. Then one line per event:
// "s N tT KIND" for the N-th step (counting from 1), run by task T, followed
// by the fields that differ from their defaults: obj (default -1), res (0),
// val (0, but always written for send, recv, choose, crash, restart and node,
// whose 0 is a value), flags (read, timeout, dropped, fault, duplicated,
// delayed), at (the location) and msg (the content of the message a send
// sends, as text). A clock event is a line "clock NS" and is not a step.
// KIND is the op's kind, which replay checks; what a human reads is the op
// the code wrote (Event.OpName): a load or swap step of rewritten code
// keeps the sync/atomic call or sync.Map or sync.Pool method it stands for
// in its val (PointOp: swap val=5 reads atomic-add), a wg-add of -1 reads
// wg-done; traces written before load and swap steps carried it read as
// their kind. The iteration line is the iteration's index in its run, from
// 0; messages count iterations from 1.
//
// A choose step with the flag fault is a fault decision: the choice that
// decided the fate of a message between nodes (morpheus.Faults). Its obj is
// the receiver, and dropped, duplicated or delayed names the fault that
// struck (none: the message went as usual); its val is the value chosen, as
// for any choice. The message is that of the deciding task's next step, its
// send. Renderings say what happened ("drop → backup@n2 main.Put{K:1}")
// rather than the value:
//
//	s 14 t2 choose obj=1 val=12 flags=dropped,fault at="kv.go:50"
//	s 15 t2 send obj=1 res=2 val=2 flags=dropped at="kv.go:50" msg="main.Put{K:1}"
//
// These flags were added to version 1 of the format; a decoder that predates
// them rejects such a line by the flag's name, and reads every other trace.
//
// The last line is "end", so that a truncated file is an error rather than a
// shorter trace. Blank lines and lines starting with "#" are ignored. No line
// may exceed 1 MiB: Encode cuts long message texts to stay within it.
package trace
