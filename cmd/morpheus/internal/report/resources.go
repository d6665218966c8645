package report

import (
	"regexp"
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
	if res, name := raceLocation(t); name != "" {
		out[res] = name + " (" + out[res] + ")"
	}
	return out
}

// raceName finds the name of a data race's location in its message: "data
// race on c.m: g2 write at …".
var raceName = regexp.MustCompile(`^data race on (.+?): \S+ (?:read|write|atomic read|atomic write) at `)

// raceLocation returns the memory location of a data race failure found at
// a plain-memory step, and the expression its message names it by; "" if
// the failure is not one.
func raceLocation(t *trace.Trace) (uint32, string) {
	f := t.Header.Failure
	if f == nil || f.Kind != "race" {
		return 0, ""
	}
	m := raceName.FindStringSubmatch(f.Message)
	i := failureEvent(t, stepsOf(t))
	if m == nil || i < 0 || strings.HasPrefix(m[1], "location#") {
		return 0, ""
	}
	if e := &t.Events[i]; (e.Kind == trace.KindMemRead || e.Kind == trace.KindMemWrite) && e.Res != 0 {
		return e.Res, m[1]
	}
	return 0, ""
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
