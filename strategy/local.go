package strategy

import "github.com/morpheus-go/morpheus/trace"

// Local reports whether op o affects no task but its own: a task's start
// step, or the spawn of a goroutine (which only creates its child). Such an
// op commutes with every other op, so where it runs in a schedule does not
// change the schedule's partial order. The built-in strategies run it as soon
// as it is enabled instead of spending a decision on it, so their randomness
// (and PCT's change points, and DFS's branches) go to ops on shared state
// only. Yield (a deliberate scheduling point) and timer ops (whose firing has
// effects) are not local; an actor spawn touches its node and is not either.
func Local(o *Op) bool {
	return o.Res == 0 && (o.Kind == trace.KindStart || o.Kind == trace.KindSpawn)
}

// firstLocal returns the index of the first local op in enabled, or -1.
func firstLocal(enabled []Op) int {
	for i := range enabled {
		if Local(&enabled[i]) {
			return i
		}
	}
	return -1
}
