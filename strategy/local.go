package strategy

import "github.com/morpheus-go/morpheus/internal/opkind"

// Local reports whether op o affects no task but its own: a task's start
// step, or the spawn of a goroutine (which only creates its child). Such an
// op commutes with every other op, so where it runs in a schedule does not
// change the schedule's partial order. The built-in strategies run it as soon
// as it is enabled instead of spending a decision on it, so their randomness
// (and PCT's change points, and DFS's branches) go to ops on shared state
// only. Yield (a deliberate scheduling point) and timer ops (whose firing has
// effects) are not local; an actor spawn touches its node and is not either.
func Local(o *Op) bool { return opkind.Local(o.Kind, o.Res) }

// firstLocal returns the index of the first local op in enabled, or -1.
func firstLocal(enabled []Op) int {
	for i := range enabled {
		if Local(&enabled[i]) {
			return i
		}
	}
	return -1
}

// LocalFirst is implemented by strategies that run a local op (Local) as
// soon as it is enabled: given enabled ops of which some are local, Next
// returns the index of the first local one and changes nothing its later
// decisions depend on. The runtime then runs that op without building the
// rest of the enabled set or calling Next, so that starting thousands of
// goroutines does not cost, at every start, a look at every op pending.
// All built-in strategies are (the runtime's replay of a trace is not); a
// wrapper is if what it wraps is (LocalFirst reports it).
type LocalFirst interface {
	LocalFirst() bool
}

// localFirst makes a built-in strategy a LocalFirst: its Next starts with
// firstLocal and returns what it finds.
type localFirst struct{}

func (localFirst) LocalFirst() bool { return true }
