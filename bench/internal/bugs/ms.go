package bugs

import (
	"fmt"
	"slices"

	"github.com/morpheus-go/morpheus"
)

// MS1 is rabbitmq's mirrored supervisor crashing when a member leaves while
// another is added (Morpheus §4.4).
//
// Mirrored supervisors form a group kept by a process-group service (pg),
// which monitors its members and drops those that exit. A node boots by
// starting its supervisor, which registers locally, joins the group, reads
// the member list, queries every other member for its child
// specifications (sending all queries, then collecting the answers), then
// starts its own child. Queries are Erlang calls: the caller monitors the
// callee, so a callee that exits before answering makes the call fail with
// its exit reason.
//
// The harness boots nodes with supervisors A and B, then at the same time
// boots a node with supervisor C and shuts B down (an exit signal with
// reason shutdown).
//
// The bug: if B is shut down after C read the member list and before B
// answered C's query, the query fails, and the add path does not expect an
// error: C crashes (a panic).
//
// The fix: a member that exited during the add has left the group; the add
// path skips it.
//
// Detector: the crash itself (the panic), seen through the Down monitor of
// the query; the harness also checks that the group ends as {A, C}.
func MS1() Scenario {
	return built(Scenario{
		Name:    "ms-1",
		Source:  "Morpheus §4.4 (rabbitmq mirrored_supervisor)",
		Hit:     hit("panic", "ms-1: ", "query of member", "failed"),
		Options: []morpheus.Option{morpheus.MaxSteps(20000)},
	}, msTest)

}

// Requests (bodies of calls).
type (
	pgJoin    struct{ PID morpheus.PID }
	pgLeave   struct{ PID morpheus.PID }
	pgMembers struct{}
	msHello   struct{ From morpheus.PID }
	msStarted struct{ PID morpheus.PID }
)

// pgService is the process-group service of one group.
func pgService(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		var members []morpheus.PID
		refs := map[morpheus.Ref]morpheus.PID{}
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case request:
				switch b := m.Body.(type) {
				case pgJoin:
					if !slices.Contains(members, b.PID) {
						members = append(members, b.PID)
						refs[e.Watch(b.PID)] = b.PID
					}
					answer(e, m, true)
				case pgLeave:
					members = slices.DeleteFunc(members, func(p morpheus.PID) bool { return p == b.PID })
					answer(e, m, true)
				case pgMembers:
					answer(e, m, slices.Clone(members))
				}
			case morpheus.Down:
				if pid, ok := refs[m.Ref]; ok {
					delete(refs, m.Ref)
					members = slices.DeleteFunc(members, func(p morpheus.PID) bool { return p == pid })
				}
			}
		}
	}
}

// mirroredSupervisor is a group member with one child: it registers
// locally, joins the group, learns the group's children from the other
// members, starts its child and tells started.
func mirroredSupervisor(name string, pg, started morpheus.PID, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.Register("mirrored_sup")
		if _, err := call(e, pg, pgJoin{PID: e.Self()}); err != nil {
			panic(fmt.Sprintf("ms-1: %s: pg is gone: %v", name, err))
		}
		ms, err := call(e, pg, pgMembers{})
		if err != nil {
			panic(fmt.Sprintf("ms-1: %s: pg is gone: %v", name, err))
		}
		members := slices.DeleteFunc(ms.([]morpheus.PID), func(p morpheus.PID) bool { return p == e.Self() })
		specs := []string{"worker-" + name}
		replies, errs := multiCall(e, members, msHello{From: e.Self()})
		for i, m := range members {
			if err := errs[i]; err != nil {
				if v.fixed {
					continue // it left the group meanwhile
				}
				panic(fmt.Sprintf("ms-1: supervisor %s: adding to the group: query of member %v failed: %v", name, m, err))
			}
			for _, s := range replies[i].([]string) {
				if !slices.Contains(specs, s) {
					specs = append(specs, s)
				}
			}
		}
		own := "worker-" + name
		child := e.Spawn(own, msWorker)
		ref := e.Watch(child)
		isChildDown := func(m any) bool { d, ok := m.(morpheus.Down); return ok && d.Ref == ref }
		e.Send(started, msStarted{PID: e.Self()})
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case request:
				if _, ok := m.Body.(msHello); ok {
					answer(e, m, []string{own})
				}
			case morpheus.Down:
				if isChildDown(m) { // the child died: restart it
					child = e.Spawn(own, msWorker)
					ref = e.Watch(child)
				}
			}
		}
	}
}

// msWorker is a supervised child: it just lives.
func msWorker(e *morpheus.Env) {
	for {
		e.Receive(nil)
	}
}

// msTest starts supervisors A and B, then adds C while shutting B down.
func msTest(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		main := e.Self()
		pg := e.NewNode("n0", nil).Spawn("pg", pgService(v))
		// A node boots by starting its mirrored supervisor.
		start := func(name string) {
			e.NewNode("n"+name, func(e *morpheus.Env) {
				e.Spawn("sup", mirroredSupervisor(name, pg, main, v))
			})
		}
		start("a")
		a := morpheus.Recv[msStarted](e).PID
		start("b")
		b := morpheus.Recv[msStarted](e).PID
		bDown := e.Watch(b)
		// Concurrently: add C, shut B down.
		start("c")
		e.Spawn("remover", func(e *morpheus.Env) { e.Kill(b, morpheus.Reason("shutdown")) })
		c := morpheus.Recv[msStarted](e).PID
		e.Receive(func(m any) bool { d, ok := m.(morpheus.Down); return ok && d.Ref == bDown })
		// pg got B's Down before our request: the group is final.
		ms, err := call(e, pg, pgMembers{})
		e.Assert(err == nil, "ms-1: pg exited: %v", err)
		got := ms.([]morpheus.PID)
		e.Assert(slices.Equal(got, []morpheus.PID{a, c}), "ms-1: group is %v, want [a c]", got)
	}
}
