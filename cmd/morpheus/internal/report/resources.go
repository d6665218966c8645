package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// resourceNames names the resources of t as the console does: kind#N and
// where the object was created or first used ("mutex#5 bank.go:17"). The
// objects a deadlock message names keep the message's site; the others are
// named from the trace, by the kind of the ops on them and the location of
// the first.
func resourceNames(t *trace.Trace, ws []wait) map[uint32]string {
	kinds := map[uint32]string{}
	sites := map[uint32]string{}
	for i := range t.Events {
		e := &t.Events[i]
		if !e.IsStep() || e.Res == 0 {
			continue
		}
		k := objectKind(e.Kind)
		if old, ok := kinds[e.Res]; !ok || old == "mutex" && k == "rwmutex" {
			kinds[e.Res] = k
		}
		if _, ok := sites[e.Res]; !ok && e.Loc != 0 {
			sites[e.Res] = t.LocString(e.Loc)
		}
	}
	for _, w := range ws {
		if w.res != 0 {
			if k, _, ok := strings.Cut(w.object, "#"); ok {
				kinds[w.res] = k
			}
			sites[w.res] = w.site
		}
	}
	out := make(map[uint32]string, len(kinds))
	for r, k := range kinds {
		s := k + "#" + strconv.FormatUint(uint64(r), 10)
		if site := sites[r]; site != "" {
			s += " " + site
		}
		out[r] = s
	}
	if name, res := raceLocation(t); name != "" {
		for _, r := range res {
			out[r] = name + " (" + out[r] + ")"
		}
	}
	return out
}

// raceName finds, in a data race's message, the name of its location and
// the two accesses: "data race on c.m: g2 write at a.go:9, unordered with
// g1's atomic write at a.go:5 (step 3): …".
var raceName = regexp.MustCompile(`^data race on (.+?): \S+ (?:read|write|atomic read|atomic write) at (\S+), unordered with .*'s (?:read|write|atomic read|atomic write) at \S+ \(step (\d+)\)`)

// raceLocation returns the name a data race failure's message gives its
// memory location ("c.m") and the resources of the trace that stand for it:
// the location's, of its plain-memory steps, and an atomic's, of the steps
// of its atomic ops (sync/atomic, a sync.Map's, a Pool's), which have a
// resource of their own. The two racing accesses are the failing task's
// last step at the message's location and the step it names. "" if the
// failure is not a data race or its location has no name.
func raceLocation(t *trace.Trace) (string, []uint32) {
	f := t.Header.Failure
	if f == nil || f.Kind != "race" {
		return "", nil
	}
	m := raceName.FindStringSubmatch(f.Message)
	if m == nil || strings.HasPrefix(m[1], "location#") {
		return "", nil
	}
	steps := stepsOf(t)
	var res []uint32
	add := func(i int) {
		if e := &t.Events[i]; e.Res != 0 && !slices.Contains(res, e.Res) && accessKind(e.Kind) {
			res = append(res, e.Res)
		}
	}
	// The later access: the race may be found after it (an atomic access
	// is checked at the next plain one), so the step is found by location.
	for k := min(f.Step, len(steps)) - 1; k >= 0; k-- {
		if e := &t.Events[steps[k].ev]; e.Task == f.Task && t.LocString(e.Loc) == m[2] {
			add(steps[k].ev)
			break
		}
	}
	if n, err := strconv.Atoi(m[3]); err == nil && n >= 1 && n <= len(steps) {
		add(steps[n-1].ev)
	}
	if len(res) == 0 {
		return "", nil
	}
	return m[1], res
}

// accessKind reports whether steps of kind k access memory the data-race
// detector checks: plain reads and writes, and an atomic op's load or swap
// of its variable.
func accessKind(k trace.Kind) bool {
	switch k {
	case trace.KindMemRead, trace.KindMemWrite, trace.KindLoad, trace.KindSwap:
		return true
	}
	return false
}

// resName returns the name of resource r, "kind#r" at least.
func resName(names map[uint32]string, r uint32) string {
	if s, ok := names[r]; ok {
		return s
	}
	return "resource#" + strconv.FormatUint(uint64(r), 10)
}

// objectKind is the kind of object an op of kind k works on, in the words
// of the console's deadlock reports.
func objectKind(k trace.Kind) string {
	switch k {
	case trace.KindLock, trace.KindUnlock, trace.KindTryLock:
		return "mutex"
	case trace.KindRLock, trace.KindRUnlock:
		return "rwmutex"
	case trace.KindWGAdd, trace.KindWGWait:
		return "waitgroup"
	case trace.KindOnce:
		return "once"
	case trace.KindCondWait, trace.KindCondSignal, trace.KindCondBroadcast:
		return "cond"
	case trace.KindChanSend, trace.KindChanRecv, trace.KindChanClose, trace.KindChanLen, trace.KindSelect:
		return "chan"
	case trace.KindLoad, trace.KindStore, trace.KindSwap, trace.KindCAS, trace.KindAdd:
		return "var"
	case trace.KindMemRead, trace.KindMemWrite:
		return "memory"
	case trace.KindTimerFire:
		return "timer"
	case trace.KindNetListen, trace.KindNetDial, trace.KindNetAccept, trace.KindNetRead, trace.KindNetWrite, trace.KindNetClose:
		return "conn"
	case trace.KindDiskWrite, trace.KindDiskSync, trace.KindDiskRead:
		return "disk"
	case trace.KindCrash, trace.KindRestart, trace.KindNode:
		return "node"
	case trace.KindRegister, trace.KindUnregister, trace.KindWhereis:
		return "registry"
	case trace.KindPartition, trace.KindHeal, trace.KindDeliver:
		return "network"
	}
	return "process"
}
