// Package coverage measures pairwise ordering coverage of runs of a system of
// real processes, after the Lingua Franca testing paper: a pair of events is
// observed unordered when one non-error trace had r0 before r1 and another r1
// before r0. The number of observed unordered pairs, its growth per run and its
// saturation are the coverage report; its denominator (the truly unordered
// pairs) is unknown.
//
// Transpositions is the streaming-transpositions algorithm: the first trace
// added is the original total order; every later trace adds the pairs it
// shows in the other order. Memory is one entry per observed unordered pair,
// so O(n·k) for a k-total system of n events. New pairs are kept apart from
// committed ones so that a save writes only the delta.
//
// Planner picks the ordering constraints of the next runs among the pairs not
// yet observed both ways, Rules checks "A always before B" against every trace.
// Events are interned to small integers by Events.
package coverage
