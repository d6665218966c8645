// Package server is morpheus's ordering server for one run of a system of
// real processes. The processes connect to its Unix socket and speak the
// tracepoint protocol (package proto): each hit blocks until the server
// releases it, and the order in which hits are released is the run's trace,
// on one clock.
//
// Three policies decide when a hit is released:
//
//   - baseline (no constraints): at once;
//   - constraints: a hit whose event is the Then of a Constraint is held until
//     the constraint's First event has passed, or until Config.Timeout has
//     elapsed; a time-out means the constraint was infeasible in this run (the
//     First event waited, directly or not, on the held process) and is counted
//     in the Result, not reported as a failure. The Result's Holds say, for
//     every held hit, which hits arrived while it was held; those that came
//     only after a time-out let it go are what the held event starves, which
//     the campaign uses to predict infeasible constraints (package coverage,
//     Precedence);
//   - random (POS-style): every hit draws a random priority on arrival and is
//     held in a pool; whenever no hit has arrived for Config.Quiet, the pool
//     releases its highest-priority hit. Low-priority events are so delayed
//     behind whatever else the system can do meanwhile.
//
// A client that crashes, hangs, disconnects mid-line or sends garbage affects
// only its own connection: bad lines get "err MESSAGE" and a close, a hit whose
// client disconnects while held is dropped from the trace, and Stop closes
// every connection and returns whatever the clients do.
package server
