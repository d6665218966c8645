package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/trace"
)

// deadlockSection tells a deadlock's story: the wait-for cycle first (for a
// lock-order inversion, which task holds which lock and wants the other's),
// then every blocked task, its op, what it waits on and who holds that.
func deadlockSection(t *trace.Trace, all []step, ws []wait, names map[uint32]string) htmlpage.Section {
	sec := htmlpage.Section{Title: "Deadlock", ID: "deadlock"}
	if sentence := cycleSentence(t, all, ws, names); sentence != "" {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph(sentence))
	} else {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph("No task can run and no timer is pending. No wait-for cycle of locks: the tasks wait for messages, channel values or events nobody will produce."))
	}
	tab := &htmlpage.Table{Columns: []htmlpage.Column{
		{Name: "task"}, {Name: "blocked in"}, {Name: "on"}, {Name: "at"}, {Name: "held by"},
	}}
	for _, w := range ws {
		on := w.object
		if w.res != 0 {
			on = resName(names, w.res)
		}
		if w.extra != "" {
			on = strings.TrimSpace(on + " " + w.extra)
		}
		held := ""
		if len(w.holder) > 0 {
			held = holderNames(t, w.holder)
		}
		tab.Rows = append(tab.Rows, htmlpage.Row{Ref: w.ref, Cells: []string{t.TaskName(w.task), w.op, on, w.loc, held}})
	}
	sec.Blocks = append(sec.Blocks, tab)
	return sec
}

// cycleSentence states a deadlock's wait-for cycle in one sentence (for a
// lock-order inversion, which task holds which lock since which step and
// waits for the other's), or returns "" when the blocked tasks form none.
func cycleSentence(t *trace.Trace, all []step, ws []wait, names map[uint32]string) string {
	cyc := waitCycle(ws)
	if cyc == nil {
		return ""
	}
	var parts []string
	for _, i := range cyc {
		w := ws[i]
		held := ""
		for _, j := range cyc {
			if ws[j].res != 0 && contains(ws[j].holder, w.task) {
				held = "holds " + resName(names, ws[j].res)
				if n := holdSince(t, all, w.task, ws[j].res); n > 0 {
					held += " (since step " + strconv.Itoa(n) + ")"
				}
				held += " and "
			}
		}
		parts = append(parts, fmt.Sprintf("%s %swaits for %s, held by %s", t.TaskName(w.task), held, resName(names, w.res), holderNames(t, w.holder)))
	}
	what := "A wait-for cycle"
	if lockCycle(ws, cyc) {
		what = "A lock-order inversion"
	}
	return what + ": " + strings.Join(parts, "; ") + ". No task of the cycle can go on before another of it does."
}

// DeadlockCause returns the sentence the HTML report's deadlock section
// opens with, for the console: the wait-for cycle of a deadlock's blocked
// tasks ("A lock-order inversion: g1 holds mutex#4 bank.go:28 (since step
// 6) and waits for mutex#5 bank.go:30, held by g2; …"), or "" when the
// trace's failure is no deadlock or its tasks form no cycle.
func DeadlockCause(t *trace.Trace) string {
	ws := waitsOf(t)
	if len(ws) == 0 || t.Header.Failure == nil || t.Header.Failure.Kind != "deadlock" {
		return ""
	}
	return cycleSentence(t, stepsOf(t), ws, resourceNames(t, ws))
}

// DeadlockWaits returns, for each blocked task of a deadlock's (or leak's)
// message that waits on a named object, the message's line and the
// console's words for it: one "at" per phrase, and who holds the object
// since when,
//
//	g1: blocked in lock on mutex#5 first used at bank.go:30 at bank.go:30
//	g1: waits in lock at bank.go:30 for mutex#5 (first used at bank.go:30), held by g2 since bank.go:28 (step 8)
//	g2: blocked in chan-send on chan#3 created at leak.go:5 at leak.go:7; started at leak.go:7
//	g2: waits in chan-send at leak.go:7 for chan#3 (created at leak.go:5); started at leak.go:7
//
// The message keeps its form (reports and tools read it).
func DeadlockWaits(t *trace.Trace) (lines, words []string) {
	ws := waitsOf(t)
	if len(ws) == 0 {
		return nil, nil
	}
	all := stepsOf(t)
	for _, w := range ws {
		if w.res == 0 || w.object == "" {
			continue
		}
		s := fmt.Sprintf("%s: waits in %s at %s for %s", t.TaskName(w.task), w.op, w.loc, w.object)
		if w.site != "" {
			s += " (" + w.made + " at " + w.site + ")"
		}
		var held []string
		for _, h := range w.holder {
			hs := t.TaskName(h)
			if n := holdSince(t, all, h, w.res); n > 0 {
				if loc := stepLoc(t, all, n); loc != "" {
					hs += " since " + loc + " (step " + strconv.Itoa(n) + ")"
				} else {
					hs += " since step " + strconv.Itoa(n)
				}
			}
			held = append(held, hs)
		}
		if len(held) > 0 {
			s += ", held by " + strings.Join(held, ", ")
		}
		if w.tail != "" {
			s += "; " + w.tail
		}
		lines, words = append(lines, w.line), append(words, s)
	}
	return lines, words
}

// stepLoc is the location of step n, "" if it has none.
func stepLoc(t *trace.Trace, all []step, n int) string {
	if n < 1 || n > len(all) {
		return ""
	}
	if loc := t.LocString(t.Events[all[n-1].ev].Loc); loc != "?" {
		return loc
	}
	return ""
}

func holderNames(t *trace.Trace, hs []int32) string {
	var s []string
	for _, h := range hs {
		s = append(s, t.TaskName(h))
	}
	return strings.Join(s, ", ")
}

func contains(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// lockCycle reports whether every wait of the cycle is on a lock.
func lockCycle(ws []wait, cyc []int) bool {
	for _, i := range cyc {
		if k, _, _ := strings.Cut(ws[i].object, "#"); k != "mutex" && k != "rwmutex" {
			return false
		}
	}
	return true
}
