package prim

import (
	"strconv"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Go starts f in a new goroutine that morpheus controls, the spawn located
// at pc (see csync.Go): a task of the iteration named "gN" after its task
// number.
func Go(pc uintptr, f func()) {
	t, r := ctl.Self("Go")
	if f == nil {
		panic("csync: Go of nil func value")
	}
	Spawn(t, r, pc, f)
}

// Spawn runs the spawn op of t, located at pc, and creates the goroutine's
// task, which runs f.
func Spawn(t *core.Task, r *core.Run, pc uintptr, f func()) *core.Task {
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	return start(t, r, f)
}

// start creates a goroutine's task as the effect of the step that runs now
// (a spawn, or a timer firing for AfterFunc) and records it in that step.
func start(parent *core.Task, r *core.Run, f func()) *core.Task {
	child := r.Spawn(parent, goName(len(r.Tasks())), core.ChildKey(parent), f)
	r.Event().Obj = child.ID
	return child
}

// goNames caches the names of the first goroutines.
var goNames = func() (s [256]string) {
	for i := range s {
		s[i] = "g" + strconv.Itoa(i)
	}
	return s
}()

func goName(id int) string {
	if id < len(goNames) {
		return goNames[id]
	}
	return "g" + strconv.Itoa(id)
}
