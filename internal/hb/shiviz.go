package hb

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/morpheus-go/morpheus/trace"
)

// shivizRegexp is the regular expression that parses WriteShiViz's log in
// ShiViz (https://bestchai.bitbucket.io/shiviz/): an event is a line with the
// host and its vector clock, then a line describing the event.
const shivizRegexp = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`

// WriteShiViz writes t as a log for ShiViz, the visualiser of distributed
// executions, which draws a time-space diagram from vector clocks. The file
// is what ShiViz's "upload a log" expects: its first line is the parsing
// regular expression, its second the delimiter of several
// executions (empty: there is one), then two lines per step event:
//
//	server@n1 {"main":3,"server@n1":2}
//	step 11 at 0.000s: recv ← client main.ClientReq{Data:3} (server.go:20)
//
// Hosts are tasks. A host is the task's name with blanks replaced by "_";
// tasks whose names would clash are told apart by "#ID". A clock has the
// nonzero entries of the step's vector clock (see Clocks), by host, in task
// order; each host's own entry counts its steps from 1, as ShiViz requires.
// The step the failure was detected at (see Header.Failure) ends its line
// with the failure. Events of the runtime itself (a negative task) and clock
// jumps have no vector clock and are left out.
//
// The output is deterministic: the same trace gives the same bytes.
func WriteShiViz(w io.Writer, t *trace.Trace) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(shivizRegexp + "\n\n")
	hosts := shivizHosts(t)
	fail := failureStep(t)
	step, now, next := 0, int64(0), 0 // step number and time after event next-1
	var b []byte
	Clocks(t, func(i int, vc VC) {
		for ; next <= i; next++ {
			if ev := &t.Events[next]; ev.IsStep() {
				step++
			} else if ev.Kind == trace.KindClock {
				now = ev.Val
			}
		}
		e := &t.Events[i]
		b = append(b[:0], hosts[e.Task]...)
		b = append(b, " {"...)
		first := true
		for task, n := range vc {
			if n == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			name, _ := json.Marshal(hosts[task]) // a string: cannot fail
			b = append(b, name...)
			b = append(b, ':')
			b = strconv.AppendUint(b, uint64(n), 10)
		}
		b = append(b, "}\nstep "...)
		b = strconv.AppendInt(b, int64(step), 10)
		b = append(b, " at "...)
		b = append(b, trace.FormatTime(now)...)
		b = append(b, ": "...)
		b = append(b, e.OpName()...)
		if d := t.Detail(e); d != "" {
			b = append(append(b, ' '), d...)
		}
		if e.Loc != 0 {
			b = append(b, " ("...)
			b = append(b, printable(t.LocString(e.Loc))...)
			b = append(b, ')')
		}
		if i == fail {
			f := t.Header.Failure
			b = append(b, " ✗ FAILED: "...)
			b = append(b, printable(f.Kind)...)
			if f.Message != "" {
				b = append(b, ": "...)
				b = append(b, printable(f.Message)...)
			}
		}
		b = append(b, '\n')
		bw.Write(b) // a bufio.Writer keeps the first error for Flush
	})
	return bw.Flush()
}

// shivizHosts names the tasks of t as ShiViz hosts: unique, without blanks.
// The slice is indexed by task ID and covers every task an event names.
func shivizHosts(t *trace.Trace) []string {
	n := len(t.Tasks)
	for i := range t.Events {
		n = max(n, int(t.Events[i].Task)+1)
	}
	hosts := make([]string, n)
	count := map[string]int{}
	for id := range hosts {
		hosts[id] = printable(strings.Join(strings.Fields(t.TaskName(int32(id))), "_"))
		if hosts[id] == "" {
			hosts[id] = "t" + strconv.Itoa(id)
		}
		count[hosts[id]]++
	}
	taken := map[string]bool{}
	for id, h := range hosts {
		if count[h] > 1 {
			h += "#" + strconv.Itoa(id)
		}
		for taken[h] { // "#ID" clashed with another task's name
			h += "#" + strconv.Itoa(id)
		}
		taken[h] = true
		hosts[id] = h
	}
	return hosts
}

// failureStep returns the index of the event the failure of t was detected
// at: the last step of the failing task at or before the failure's step
// number, or -1 if the trace does not say.
func failureStep(t *trace.Trace) int {
	f := t.Header.Failure
	if f == nil || f.Task < 0 {
		return -1
	}
	at, step := -1, 0
	for i := range t.Events {
		e := &t.Events[i]
		if !e.IsStep() {
			continue
		}
		if step++; step > f.Step {
			break
		}
		if e.Task == f.Task {
			at = i
		}
	}
	return at
}

// printable escapes what would break a line of the log: newlines, tabs and
// other invisible characters (as the trace's renderings do).
func printable(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}
