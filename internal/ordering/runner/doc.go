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
// and the planner that picks each run's ordering constraints. Every save
// interval the state writes a delta (package store); a campaign can resume
// from its directory after a crash.
package runner
