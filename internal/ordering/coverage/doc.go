// Package coverage measures pairwise ordering coverage of runs of a system of
// real processes, after the Lingua Franca testing paper: a pair of events is
// observed unordered when one non-error trace had r0 before r1 and another r1
// before r0. The number of observed unordered pairs, its growth per run and its
// saturation are the coverage report; its denominator (the truly unordered
// pairs) is unknown, but Precedence bounds it from above (the paper's §4.3).
//
// Transpositions is the streaming-transpositions algorithm: the first trace
// added is the original total order; every later trace adds the pairs it
// shows in the other order. Memory is one entry per observed unordered pair,
// so O(n·k) for a k-total system of n events. New pairs are kept apart from
// committed ones so that a save writes only the delta.
//
// Planner picks the ordering constraints of the next runs among the pairs not
// yet observed both ways, passing over those Precedence predicts ordered:
// pairs the user's rules order (sound as far as the rules are true), and
// pairs a time-out has shown ordered (a heuristic: a held event that starved
// another for a whole time-out), closed under the paper's rule (1). Rules
// checks "A always before B" against every trace. Events are interned to
// small integers by Events.
package coverage
