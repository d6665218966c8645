package trace

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"
)

// maxRenderMsg bounds the message text Render shows, in runes. One long
// message would otherwise widen its column for every line and push the
// locations out of view; the trace file keeps the whole text.
const maxRenderMsg = 60

// Render writes events [from, to) of t for a human, one line per step:
//
//	step  time     task       op     detail                      location
//	   3  0.000s   main       send   → server@n1 main.Req{N:3}  storage_test.go:44
//
// Step numbers and virtual times are those of the whole iteration, so a
// window (see Tail) reads the same as the corresponding part of the full
// rendering. Clock events are not lines; they set the time of the steps after
// them. to < 0 means to the end; both bounds are clamped to the events.
//
// Columns are aligned over the whole window, which Render therefore holds in
// memory until it returns.
func Render(w io.Writer, t *Trace, from, to int) error {
	if to < 0 || to > len(t.Events) {
		to = len(t.Events)
	}
	from = max(0, min(from, to))
	step, now := 0, int64(0)
	for i := range t.Events[:from] {
		step, now = advance(&t.Events[i], step, now)
	}
	width := len(strconv.Itoa(t.Steps())) // right-aligns step numbers
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	var b []byte
	for i := range t.Events[from:to] {
		e := &t.Events[from+i]
		step, now = advance(e, step, now)
		if !e.IsStep() {
			continue
		}
		b = t.appendLine(b[:0], width, step, now, e)
		tw.Write(b) // writes to a bytes.Buffer do not fail
	}
	return flushLines(w, tw, &out)
}

// appendLine appends the line of step e (number step, at virtual time now)
// to b, its cells ended by tabs for a tabwriter.
func (t *Trace) appendLine(b []byte, width, step int, now int64, e *Event) []byte {
	n := strconv.Itoa(step)
	for range width - len(n) {
		b = append(b, ' ')
	}
	b = append(b, n...)
	b = append(append(b, '\t'), fmtTime(now)...)
	b = append(append(b, '\t'), printable(t.TaskName(e.Task))...)
	b = append(append(b, '\t'), e.OpName()...)
	b = append(append(b, '\t'), printable(t.detail(e))...)
	b = append(b, '\t')
	if e.Loc != 0 {
		b = append(b, printable(t.LocString(e.Loc))...)
	}
	// Every line ends its cells with a tab, including empty ones, since
	// tabwriter aligns a column only over consecutive lines that have it.
	return append(b, "\t\n"...)
}

// flushLines flushes tw, which writes to out, and copies out's lines to w
// without the padding of their empty last cells (trailing blanks).
func flushLines(w io.Writer, tw *tabwriter.Writer, out *bytes.Buffer) error {
	tw.Flush()
	var b []byte
	for line := range bytes.Lines(out.Bytes()) {
		b = append(bytes.TrimRight(line, " \n"), '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	return nil
}

// Tail returns the index of the event from which the last n steps of t
// start, for rendering the end of a long trace: Render(w, t, Tail(t, n), -1).
// It returns 0 if t has n steps or fewer, and len(t.Events) if n <= 0.
func Tail(t *Trace, n int) (from int) {
	if n <= 0 {
		return len(t.Events)
	}
	for i := len(t.Events) - 1; i >= 0; i-- {
		if t.Events[i].IsStep() {
			if n--; n == 0 {
				return i
			}
		}
	}
	return 0
}

// advance returns the step count and virtual time after event e.
func advance(e *Event, step int, now int64) (int, int64) {
	if e.IsStep() {
		return step + 1, now
	}
	if e.Kind == KindClock {
		now = e.Val
	}
	return step, now
}

// detail describes what step e did beyond its kind: the other task, the
// message, the value chosen, the fate a fault decision gave a message.
func (t *Trace) detail(e *Event) string {
	var parts []string
	switch e.Kind {
	case KindSend, KindTimer:
		parts = append(parts, "→ "+t.peer(e.Obj))
		if e.Flag&FlagDropped != 0 {
			parts = append(parts, "dropped")
		}
		parts = append(parts, t.renderMsg(e.Val))
	case KindRecv:
		if e.Flag&FlagTimeout != 0 {
			parts = append(parts, "timeout")
			break
		}
		parts = append(parts, "← "+t.peer(e.Obj), t.renderMsg(e.Val))
	case KindChoose:
		if e.Flag&FlagFault != 0 {
			parts = t.faultDetail(e)
			break
		}
		parts = append(parts, "= "+strconv.FormatInt(e.Val, 10))
	case KindCrash, KindRestart, KindNode:
		parts = append(parts, "node "+strconv.FormatInt(e.Val, 10))
	default:
		if e.Obj >= 0 {
			parts = append(parts, t.peer(e.Obj))
		}
		if e.Flag&FlagTimeout != 0 {
			parts = append(parts, "timeout")
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// peer names the other task of an event, "?" if there is none.
func (t *Trace) peer(id int32) string {
	if id < 0 {
		return "?"
	}
	return t.TaskName(id)
}

// renderMsg returns the content of message id for display, "" if unknown.
func (t *Trace) renderMsg(id int64) string {
	if id < 0 || id >= int64(len(t.Msgs)) || t.Msgs[id] == nil {
		return ""
	}
	s := msgText(t.Msgs[id])
	if utf8.RuneCountInString(s) > maxRenderMsg {
		i := 0
		for range maxRenderMsg - 1 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		s = s[:i] + "…"
	}
	return s
}

// fmtTime formats a virtual time in ns as seconds with milliseconds.
func fmtTime(ns int64) string {
	sign := ""
	u := uint64(ns)
	if ns < 0 {
		sign, u = "-", -u
	}
	ms := u / 1e6
	frac := strconv.FormatUint(ms%1000, 10)
	return sign + strconv.FormatUint(ms/1000, 10) + "." + strings.Repeat("0", 3-len(frac)) + frac + "s"
}

// printable escapes what would break a rendered line: newlines, tabs (which
// tabwriter takes for column breaks) and other invisible characters.
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
