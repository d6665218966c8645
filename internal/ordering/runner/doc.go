// Package runner runs a fuzzing campaign over a system of real processes
// ("morpheus fuzz"): it launches the system's command many times, several at
// once, each run with its own ordering server (package server) on a Unix
// socket in a fresh directory only the user can read, named to the system's
// processes by MORPHEUS_SOCKET. It records every run's exit code, the tail of
// its stderr and its trace; a run past its time limit is killed with its whole
// process group and recorded as hung.
//
// Between runs a State carries the campaign: interned events, the
// streaming-transpositions coverage (package coverage) of the non-error
// traces, the growth of observed unordered pairs, the rules' counterexamples,
// what the rules and the time-outs tell of the precedence relation
// (coverage.Precedence: a hold the time-out let go starves the events that
// arrive only after it), and the planner that picks each run's ordering
// constraints, passing over those predicted infeasible when
// Meta.SkipInfeasible is set. A server-mode campaign ends early when its
// planner has nothing left to try. Every save interval the state writes a
// delta (package store); a campaign can resume from its directory after a
// crash.
package runner
