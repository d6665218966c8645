package bugs

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus"
)

// Locks1 is the locks manager's prematurely reset version (Morpheus §4.1,
// Fig. 6).
//
// A lock server keeps an entry per lock: a version and the queue of clients
// that want the lock, its head holding it. Every change of an entry bumps
// the version and is sent to the clients in the queue; when the last client
// leaves the queue the server deletes the entry. Clients keep the entries
// they know and ignore an entry whose version is not newer than theirs (a
// delayed message). To detect circular waits without a central detector, a
// client that waits for a lock forwards the server's entry of that lock to
// the other clients queued on its other locks; a client that finds itself
// on a cycle of the wait-for graph of the entries it knows surrenders its
// locks if it has the cycle's largest name (the server moves it to the end
// of the queue).
//
// The three clients of Fig. 6 run: A locks x then y; B locks y then x; C
// locks y, releases it, then locks x. A and B can wait for each other; B
// then surrenders y.
//
// The bug: deleting an entry resets its version. B, holding y with A and C
// queued behind it, waits for x and forwards its entry of x to C, which has
// not asked for x. Once A and B have released x the server deletes x's
// entry; when C then asks for x it gets a fresh entry with version 1, no
// newer than the forwarded one, ignores it as stale and waits forever.
//
// The fix: the server remembers the version of a deleted entry and goes on
// counting from it, so versions never go back.
//
// Detector: a liveness monitor, hot while some lock request is not granted.
// Its state names each waiting client and says when the client holds an
// entry from before the server deleted it that is not older than the
// server's current one: the hit is that liveness failure (the system is
// quiescent with the monitor hot).
func Locks1() Scenario {
	return built(Scenario{
		Name:    "locks-1",
		Source:  "Morpheus §4.1, Fig. 6 (locks, prematurely reset version)",
		Hit:     hit("liveness", "monitor locks is hot", "from before the entry was deleted, not older than the server's"),
		Options: []morpheus.Option{morpheus.MaxSteps(20000)},
	}, locksTest)

}

// lkClient names a client.
type lkClient struct {
	Name string
	PID  morpheus.PID
}

// Messages of the lock manager.
type (
	// lkEntry is a lock's entry: its version and queue. Forwarded marks an
	// entry a client passed on (clients forward only what the server sent).
	//
	// Gen counts how many times the server created the lock's entry. The
	// protocol never reads it: it is there for the monitor.
	lkEntry struct {
		Lock      string
		Version   int
		Queue     []lkClient
		Forwarded bool
		Gen       int
	}
	lkRequest struct {
		Lock   string
		Client lkClient
	}
	lkRelease struct {
		Lock   string
		Client lkClient
	}
	// lkSurrender gives up a held lock, as of the entry version the client
	// decided on (the server ignores a surrender of an older version).
	lkSurrender struct {
		Lock    string
		Client  lkClient
		Version int
	}
	lkDone struct{ Name string }
)

// Events for the monitor.
type (
	lkServerVersion struct {
		Lock         string
		Version, Gen int // Version 0: no entry
	}
	lkKnown struct {
		Client, Lock string
		Version, Gen int
	}
	lkWaiting struct{ Client, Lock string }
	lkGranted struct{ Client, Lock string }
)

// lkState is the server's entry of a lock.
type lkState struct {
	version, gen int
	queue        []lkClient
}

// lockServer is the lock server.
func lockServer(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		entries := map[string]*lkState{}
		deleted := map[string]int{} // version of each deleted entry
		gens := map[string]int{}
		notify := func(l string, st *lkState) {
			e.Announce(lkServerVersion{Lock: l, Version: st.version, Gen: st.gen})
			for _, c := range st.queue {
				e.Send(c.PID, lkEntry{Lock: l, Version: st.version, Queue: slices.Clone(st.queue), Gen: st.gen})
			}
		}
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case lkRequest:
				st := entries[m.Lock]
				if st == nil {
					gens[m.Lock]++
					st = &lkState{gen: gens[m.Lock]}
					if v.fixed {
						st.version = deleted[m.Lock] // the bug without it: versions restart
					}
					entries[m.Lock] = st
				}
				if !slices.Contains(st.queue, m.Client) {
					st.queue = append(st.queue, m.Client)
				}
				st.version++
				notify(m.Lock, st)
			case lkRelease:
				st := entries[m.Lock]
				if st == nil || !slices.Contains(st.queue, m.Client) {
					continue
				}
				st.queue = slices.DeleteFunc(st.queue, func(c lkClient) bool { return c == m.Client })
				st.version++
				if len(st.queue) == 0 {
					delete(entries, m.Lock) // no holder, no waiter
					deleted[m.Lock] = st.version
					e.Announce(lkServerVersion{Lock: m.Lock})
					continue
				}
				notify(m.Lock, st)
			case lkSurrender:
				st := entries[m.Lock]
				if st == nil || st.version != m.Version || st.queue[0] != m.Client || len(st.queue) < 2 {
					continue // decided on an outdated entry
				}
				st.queue = append(st.queue[1:], m.Client)
				st.version++
				notify(m.Lock, st)
			}
		}
	}
}

// lkStep is one step of a client's script: lock Lock, or release all ("").
type lkStep struct{ Lock string }

// lkAgent is a client's state.
type lkAgent struct {
	me          lkClient
	server      morpheus.PID
	entries     map[string]lkEntry
	want        []string       // locks requested and not released, in order
	surrendered map[string]int // lock -> entry version surrendered at
}

// lockClient runs a client's script and tells done when it is over.
func lockClient(name string, server, done morpheus.PID, script []lkStep, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		a := &lkAgent{me: lkClient{Name: name, PID: e.Self()}, server: server,
			entries: map[string]lkEntry{}, surrendered: map[string]int{}}
		for _, st := range script {
			if st.Lock == "" {
				for _, l := range a.want {
					e.Send(server, lkRelease{Lock: l, Client: a.me})
					delete(a.entries, l)
				}
				a.want = nil
				continue
			}
			a.want = append(a.want, st.Lock)
			e.Announce(lkWaiting{Client: name, Lock: st.Lock})
			e.Send(server, lkRequest{Lock: st.Lock, Client: a.me})
			for !a.holds(st.Lock) {
				m := morpheus.Recv[lkEntry](e)
				v.handled(e)
				a.handle(e, m)
			}
			e.Announce(lkGranted{Client: name, Lock: st.Lock})
		}
		e.Send(done, lkDone{Name: name})
	}
}

func (a *lkAgent) holds(l string) bool {
	ent, ok := a.entries[l]
	return ok && len(ent.Queue) > 0 && ent.Queue[0] == a.me
}

// handle takes in an entry from the server or from another client.
func (a *lkAgent) handle(e *morpheus.Env, ent lkEntry) {
	if !ent.Forwarded && !slices.Contains(a.want, ent.Lock) {
		return // a late update of a lock it released
	}
	if old, ok := a.entries[ent.Lock]; ok && ent.Version <= old.Version {
		return // stale: it knows a newer entry
	}
	a.entries[ent.Lock] = ent
	e.Announce(lkKnown{Client: a.me.Name, Lock: ent.Lock, Version: ent.Version, Gen: ent.Gen})
	if !ent.Forwarded && !a.holds(ent.Lock) {
		a.forward(e, ent)
	}
	a.detect(e)
}

// forward passes on a server's entry of a lock the client waits for, to the
// clients queued on its other locks that are not in the entry's queue
// themselves: they may be on a cycle through it that they cannot see.
func (a *lkAgent) forward(e *morpheus.Env, ent lkEntry) {
	var to []lkClient
	for _, l := range a.want {
		for _, c := range a.entries[l].Queue {
			if c != a.me && !slices.Contains(ent.Queue, c) && !slices.Contains(to, c) {
				to = append(to, c)
			}
		}
	}
	slices.SortFunc(to, func(x, y lkClient) int { return strings.Compare(x.Name, y.Name) })
	ent.Forwarded = true
	for _, c := range to {
		e.Send(c.PID, ent)
	}
}

// detect looks for a cycle through the client in the wait-for graph of the
// entries it knows (a waiter waits for its queue's head); the cycle's largest
// name surrenders the locks it holds that others of the cycle wait for.
func (a *lkAgent) detect(e *morpheus.Env) {
	edges := map[string][]string{}
	locks := make([]string, 0, len(a.entries))
	for l := range a.entries {
		locks = append(locks, l)
	}
	slices.Sort(locks)
	for _, l := range locks {
		q := a.entries[l].Queue
		for _, w := range q[min(1, len(q)):] {
			edges[w.Name] = append(edges[w.Name], q[0].Name)
		}
	}
	cycle := findCycle(edges, a.me.Name)
	if cycle == nil || slices.Max(cycle) != a.me.Name {
		return
	}
	for _, l := range a.want {
		ent := a.entries[l]
		if !a.holds(l) || a.surrendered[l] == ent.Version {
			continue
		}
		if slices.ContainsFunc(ent.Queue[1:], func(c lkClient) bool { return slices.Contains(cycle, c.Name) }) {
			a.surrendered[l] = ent.Version
			e.Send(a.server, lkSurrender{Lock: l, Client: a.me, Version: ent.Version})
		}
	}
}

// findCycle returns the nodes of a cycle through from, or nil.
func findCycle(edges map[string][]string, from string) []string {
	var path []string
	seen := map[string]bool{}
	var walk func(n string) bool
	walk = func(n string) bool {
		path = append(path, n)
		for _, m := range edges[n] {
			if m == from {
				return true
			}
			if !seen[m] {
				seen[m] = true
				if walk(m) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(from) {
		return path
	}
	return nil
}

// lkMonitor is hot while a lock request waits, and says when the waiting
// client holds an entry from before the server deleted it, whose version is
// not older than the server's current one: the client will ignore the
// server's entries.
type lkMonitor struct {
	server  map[string][2]int    // lock -> the server's {version, gen} (version 0: no entry)
	known   map[[2]string][2]int // {client, lock} -> the client's {version, gen}
	waiting map[string]string    // client -> lock
}

func (o *lkMonitor) Observe(m *morpheus.Mon, event any) {
	switch ev := event.(type) {
	case lkServerVersion:
		o.server[ev.Lock] = [2]int{ev.Version, ev.Gen}
	case lkKnown:
		o.known[[2]string{ev.Client, ev.Lock}] = [2]int{ev.Version, ev.Gen}
	case lkWaiting:
		o.waiting[ev.Client] = ev.Lock
	case lkGranted:
		delete(o.waiting, ev.Client)
	}
	if len(o.waiting) == 0 {
		m.Cold("all requests granted")
		return
	}
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(o.waiting)) {
		l := o.waiting[c]
		s := fmt.Sprintf("%s waits for %s", c, l)
		k, srv := o.known[[2]string{c, l}], o.server[l]
		if srv[0] > 0 && k[1] < srv[1] && k[0] >= srv[0] {
			s += fmt.Sprintf(" holding entry v%d from before the entry was deleted, not older than the server's v%d", k[0], srv[0])
		}
		parts = append(parts, s)
	}
	m.Hot(strings.Join(parts, "; "))
}

// locksTest runs the lock server and the three clients of Fig. 6.
func locksTest(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.AddMonitor("locks", &lkMonitor{server: map[string][2]int{}, known: map[[2]string][2]int{}, waiting: map[string]string{}})
		srv := e.NewNode("ls", nil).Spawn("locks", lockServer(v))
		scripts := []struct {
			name  string
			steps []lkStep
		}{
			{"A", []lkStep{{"x"}, {"y"}, {}}},
			{"B", []lkStep{{"y"}, {"x"}, {}}},
			{"C", []lkStep{{"y"}, {}, {"x"}, {}}},
		}
		for _, s := range scripts {
			e.NewNode(strings.ToLower(s.name), nil).Spawn("client", lockClient(s.name, srv, e.Self(), s.steps, v))
		}
		for range scripts {
			morpheus.Recv[lkDone](e)
		}
	}
}
