package report

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// wait is what a blocked task waited for when its iteration deadlocked, as
// the failure message lists it (one line per task, the console's text):
//
//	g1: blocked in lock on mutex#5 first used at bank.go:30 at bank.go:30
//	g2: blocked in chan-send on chan#3 created at leak.go:5 at leak.go:7; started at leak.go:7
//	client@n1: waits in receive at client.go:12 (mailbox empty)
//
// The blocked op is not a step of the trace (it never ran), so the message
// is the only record of it; its object's name is the one the console gives.
type wait struct {
	task   int32
	op     string // "lock", "receive", ...
	object string // "mutex#5", "" when the op waits on no named object
	res    uint32 // the object's resource, 0 if unnamed
	site   string // where the object was created or first used
	made   string // "created" or "first used": what site is
	loc    string // where the task waits
	extra  string // what the line says after the location ("mailbox empty")
	tail   string // what a leak's line adds after "; " ("started at leak.go:7")
	holder []int32
	ref    string // data-ref of the wait's marks
	line   string // the message's line, trimmed
}

var (
	blockedLine = regexp.MustCompile(`^blocked in (\S+) on (.*?) at (\S+?)(?:; (.*))?$`)
	waitsLine   = regexp.MustCompile(`^waits in (\S+) at (\S+)(?: (.*))?$`)
	objectName  = regexp.MustCompile(`^([a-z]+)#([0-9]+) (created|first used) at (\S+)$`)
)

// waitsOf returns the waits a deadlock's (or leak's) failure message lists,
// in its order, with the tasks holding the locks they wait for.
func waitsOf(t *trace.Trace) []wait {
	f := t.Header.Failure
	if f == nil || (f.Kind != "deadlock" && f.Kind != "leak") {
		return nil
	}
	byName := map[string]int32{}
	for _, tk := range t.Tasks {
		byName[tk.Name] = tk.ID
	}
	var out []wait
	for line := range strings.Lines(f.Message) {
		line = strings.TrimSpace(line)
		name, rest, ok := splitTask(line, byName)
		if !ok {
			continue
		}
		w := wait{task: byName[name], line: line}
		if m := blockedLine.FindStringSubmatch(rest); m != nil {
			w.op, w.object, w.loc, w.tail = m[1], m[2], m[3], m[4]
			if o := objectName.FindStringSubmatch(w.object); o != nil {
				n, _ := strconv.ParseUint(o[2], 10, 32)
				w.object, w.res, w.made, w.site = o[1]+"#"+o[2], uint32(n), o[3], o[4]
			}
		} else if m := waitsLine.FindStringSubmatch(rest); m != nil {
			w.op, w.loc, w.extra = m[1], m[2], strings.Trim(m[3], "()")
		} else {
			continue
		}
		w.ref = "b" + strconv.Itoa(int(w.task))
		out = append(out, w)
	}
	holders := lockHolders(t)
	for i := range out {
		if out[i].res != 0 {
			for _, h := range holders[out[i].res] {
				if h != out[i].task {
					out[i].holder = append(out[i].holder, h)
				}
			}
		}
	}
	return out
}

// splitTask splits "name: text" where name is a task of the trace; task
// names may themselves hold ": ", so the longest such prefix wins.
func splitTask(line string, tasks map[string]int32) (name, rest string, ok bool) {
	for i := len(line) - 2; i > 0; i-- {
		if line[i] == ':' && line[i+1] == ' ' {
			if _, known := tasks[line[:i]]; known {
				return line[:i], line[i+2:], true
			}
		}
	}
	return "", "", false
}

// lockHolders returns, for each mutex or RWMutex of t, the tasks holding it
// at the end of the trace: the writer, or the readers.
func lockHolders(t *trace.Trace) map[uint32][]int32 {
	held := map[uint32][]int32{}
	for i := range t.Events {
		e := &t.Events[i]
		if !e.IsStep() || e.Res == 0 {
			continue
		}
		switch e.Kind {
		case trace.KindLock, trace.KindTryLock:
			if e.Val != trace.ValNone && e.Flag&trace.FlagRead == 0 {
				held[e.Res] = []int32{e.Task}
			}
		case trace.KindRLock:
			if e.Val != trace.ValNone {
				held[e.Res] = append(held[e.Res], e.Task)
			}
		case trace.KindUnlock:
			delete(held, e.Res)
		case trace.KindRUnlock:
			hs := held[e.Res]
			for k, h := range hs {
				if h == e.Task {
					held[e.Res] = append(hs[:k:k], hs[k+1:]...)
					break
				}
			}
		}
	}
	return held
}

// waitCycle returns a cycle of the wait-for graph (a blocked task waits for
// the tasks holding what it waits on), as indexes into ws in cycle order, or
// nil if there is none. Of several cycles it returns the one through the
// earliest listed task.
func waitCycle(ws []wait) []int {
	idx := map[int32]int{}
	for i, w := range ws {
		idx[w.task] = i
	}
	for start := range ws {
		path, on := []int{start}, map[int]bool{start: true}
		for cur := start; ; {
			next := -1
			for _, h := range ws[cur].holder {
				if j, ok := idx[h]; ok {
					next = j
					break
				}
			}
			if next < 0 {
				break
			}
			if on[next] {
				for k, p := range path {
					if p == next {
						return path[k:]
					}
				}
			}
			path, on[next], cur = append(path, next), true, next
		}
	}
	return nil
}
