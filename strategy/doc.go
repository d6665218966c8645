// Package strategy decides, at every step of a test iteration, which of the
// enabled operations runs next, and which value a controlled choice takes.
//
// A strategy knows only the abstract description of ops (Op: task, kind,
// resource, read or write, signature) and never the runtime that produces them,
// so the same code drives real tests and the synthetic programs of the micro
// benchmark, and can be unit-tested on hand-written sequences of enabled sets.
//
// # Determinism
//
// A strategy draws randomness only from the seed given to Begin (math/rand/v2
// with a PCG source): the same seed and the same sequence of enabled sets give
// the same decisions. Enabled sets are passed in a deterministic order (by task
// creation), and strategies must not depend on map iteration order.
//
// # Names
//
// Strategies are selected by name with optional parameters, as on the command
// line: "random", "pct:D", "pct:D:K", "pos", "pos*", "pos*-noreads",
// "rapos", "dfs", "dfs:B", and any of these followed by "+ca" (conflict
// analysis, see CA). Parse builds one from such a name. (A replay is not a
// strategy chosen by name: the runtime follows a trace given to
// morpheus.Replay with a strategy of its own.)
//
// # Your own strategy
//
// Anything that implements Strategy can drive an exploration: pass a
// function that makes one to the option morpheus.Strategy, which also takes
// a name. The option and this interface share their name on purpose: every
// option of package morpheus is named after the setting it sets, as its flag
// and environment variable are (-morpheus.strategy, MORPHEUS_STRATEGY), and
// what the strategy setting holds is a Strategy or the name of one; the
// package name tells them apart where both appear
// (morpheus.Strategy(func() strategy.Strategy { ... })). The optional interfaces tell the runtime more: a
// Learner learns across iterations, in epochs that keep each iteration's
// decisions independent of the number of workers; an Exhauster enumerates a
// finite space of schedules; a Follower follows a recorded schedule; a
// StepReader is handed each step as it runs, a TraceReader each iteration's
// trace at End; a LocalFirst, which runs a local op (Local) as soon as it is
// enabled, lets the runtime run one without building the enabled set. WithCA
// adds conflict analysis to any strategy.
package strategy
