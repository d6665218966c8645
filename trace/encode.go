package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// checkEncodable returns an error if t breaks a rule that Decode enforces, so
// that Encode never writes a file it cannot read back.
func checkEncodable(t *Trace) error {
	h := &t.Header
	if err := checkNames("test name", h.Test, "strategy", h.Strategy); err != nil {
		return err
	}
	n := int64(len(t.Tasks))
	for i, tk := range t.Tasks {
		if err := checkNames("task name", tk.Name); err != nil {
			return err
		}
		if int(tk.ID) != i {
			return fmt.Errorf("trace: cannot encode: task at index %d has ID %d", i, tk.ID)
		}
		if int64(tk.Parent) < -1 || int64(tk.Parent) >= n {
			return fmt.Errorf("trace: cannot encode: task %d has parent %d, not a task", i, tk.Parent)
		}
	}
	for k, v := range h.Options {
		if !OptionName(k) {
			return fmt.Errorf("trace: cannot encode: option name %q: expected lower-case letters and digits", clip(k, maxGot))
		}
		if err := checkNames("option "+k, v); err != nil {
			return err
		}
	}
	for i := range h.Ran {
		if err := checkRun(&h.Ran[i]); err != nil {
			return err
		}
	}
	if f := t.Header.Failure; f != nil {
		if f.Task < -1 {
			return fmt.Errorf("trace: cannot encode: failure names task %d", f.Task)
		}
		if f.Step < 0 {
			return fmt.Errorf("trace: cannot encode: failure at step %d", f.Step)
		}
		if f.ClockLimit < 0 {
			return fmt.Errorf("trace: cannot encode: failure with clock limit %d", f.ClockLimit)
		}
		if err := checkNames("failure kind", f.Kind, "failure location", f.Loc); err != nil {
			return err
		}
	}
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind == KindClock {
			continue
		}
		switch {
		case e.Kind == KindInvalid || e.Kind >= kindCount:
			return fmt.Errorf("trace: cannot encode: event %d has kind %v", i, e.Kind)
		case int64(e.Task) < 0 || int64(e.Task) >= n:
			return fmt.Errorf("trace: cannot encode: event %d (%v) has task %d, not a task", i, e.Kind, e.Task)
		case int64(e.Obj) < -1 || int64(e.Obj) >= n:
			return fmt.Errorf("trace: cannot encode: event %d (%v) has obj %d, not a task", i, e.Kind, e.Obj)
		case e.Flag&^knownFlags != 0:
			return fmt.Errorf("trace: cannot encode: event %d (%v) has unknown flags %#x", i, e.Kind, uint8(e.Flag&^knownFlags))
		case msgOf(t, e) != nil && e.Val > maxMsgID:
			return fmt.Errorf("trace: cannot encode: event %d sends message %d with content; ids above %d cannot carry content", i, e.Val, maxMsgID)
		}
		if err := checkNames("location", t.Where[e.Loc]); err != nil {
			return err
		}
	}
	return nil
}

// checkNames takes pairs of what and value and returns an error for the first
// value longer than maxName. Names and locations are identities, which Encode
// cannot shorten the way it shortens free text; the bound keeps their lines
// under maxLine.
func checkNames(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if len(pairs[i+1]) > maxName {
			return fmt.Errorf("trace: cannot encode: %s of %d bytes exceeds %d: %q", pairs[i], len(pairs[i+1]), maxName, clip(pairs[i+1], maxGot))
		}
	}
	return nil
}

// msgOf returns the recorded content of the message e refers to, or nil.
func msgOf(t *Trace, e *Event) any {
	if !carriesMsg(e) || e.Val < 0 || e.Val >= int64(len(t.Msgs)) {
		return nil
	}
	return t.Msgs[e.Val]
}

// msgText is the text the format keeps of message content m: a string as
// it is, a value with its type, so that two message types with the same
// fields read apart ("quickstart.Ping{From:client@c0}", "&kv.Put{Key:a}",
// "raft.MsgType(3)"). A value of a type of its own that formats itself (a
// String or Error method), or of a predeclared or unnamed type, is printed
// as fmt prints it.
func msgText(m any) string {
	if s, ok := m.(string); ok {
		return s
	}
	s := fmt.Sprintf("%+v", m)
	switch m.(type) {
	case fmt.Stringer, error, nil:
		return s
	}
	t, amp := reflect.TypeOf(m), ""
	if t.Kind() == reflect.Pointer && strings.HasPrefix(s, "&") {
		t, amp, s = t.Elem(), "&", s[1:]
	}
	switch {
	case t.Name() == "" || t.PkgPath() == "":
		return amp + s
	case t.Kind() == reflect.Struct:
		return amp + t.String() + s
	}
	return amp + t.String() + "(" + s + ")"
}

// MsgText returns the text of message id as a trace file keeps it (see
// msgText), "" if the trace has none.
func (t *Trace) MsgText(id int64) string {
	if id < 0 || id >= int64(len(t.Msgs)) || t.Msgs[id] == nil {
		return ""
	}
	return msgText(t.Msgs[id])
}

// encoder writes one trace, a line at a time, reusing one line buffer.
type encoder struct {
	w   *bufio.Writer
	t   *Trace
	b   []byte
	err error
}

// line writes b and a newline and keeps b's memory for the next line.
func (e *encoder) line(b []byte) {
	e.b = b
	if e.err != nil {
		return
	}
	if len(b) > maxLine { // checkEncodable's bounds should make this impossible
		e.err = errors.New("trace: cannot encode: line longer than the format allows: " + strconv.Quote(clip(string(b), maxGot)))
		return
	}
	e.w.Write(b)
	e.w.WriteByte('\n')
}

func newEncoder(w io.Writer, t *Trace) *encoder {
	return &encoder{w: bufio.NewWriter(w), t: t}
}

func (e *encoder) encode() error {
	t := e.t
	h := &t.Header
	e.line(strconv.AppendInt(append(e.b[:0], "morpheus-trace "...), FormatVersion, 10))
	e.line(appendName(append(e.b[:0], "test "...), h.Test))
	if h.Strategy != "" {
		e.line(appendName(append(e.b[:0], "strategy "...), h.Strategy))
	}
	e.line(strconv.AppendUint(append(e.b[:0], "seed "...), h.Seed, 10))
	e.line(strconv.AppendInt(append(e.b[:0], "iteration "...), int64(h.Iteration), 10))
	if len(h.Options) > 0 {
		b := append(e.b[:0], "options"...)
		for _, k := range slices.Sorted(maps.Keys(h.Options)) {
			b = appendName(append(append(append(b, ' '), k...), '='), h.Options[k])
		}
		e.line(b)
	}
	for i := range h.Ran {
		e.line(appendRun(e.b[:0], &h.Ran[i]))
	}
	if f := h.Failure; f != nil {
		b := appendName(append(e.b[:0], "failure "...), f.Kind)
		b = strconv.AppendInt(append(b, " task="...), int64(f.Task), 10)
		b = strconv.AppendInt(append(b, " step="...), int64(f.Step), 10)
		if f.ClockLimit > 0 {
			b = strconv.AppendInt(append(b, " limit="...), f.ClockLimit, 10)
		}
		if f.Loc != "" {
			b = strconv.AppendQuote(append(b, " at="...), f.Loc)
		}
		if f.Message != "" {
			b = strconv.AppendQuote(append(b, " msg="...), clip(f.Message, maxText))
		}
		e.line(b)
	}
	for i := range t.Tasks {
		tk := &t.Tasks[i]
		b := strconv.AppendInt(append(e.b[:0], "task "...), int64(tk.ID), 10)
		b = strconv.AppendInt(append(b, " parent="...), int64(tk.Parent), 10)
		b = strconv.AppendUint(append(b, " key=0x"...), tk.Key, 16)
		b = strconv.AppendQuote(append(b, " name="...), tk.Name)
		e.line(b)
	}
	step := 0
	for i := range t.Events {
		ev := &t.Events[i]
		if ev.Kind == KindClock {
			e.line(strconv.AppendInt(append(e.b[:0], "clock "...), ev.Val, 10))
			continue
		}
		step++
		e.line(e.appendStep(e.b[:0], step, ev))
	}
	e.line(append(e.b[:0], "end"...))
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// appendStep appends the s line of step event ev, writing optional fields
// only when they differ from what Decode assumes in their absence.
func (e *encoder) appendStep(b []byte, step int, ev *Event) []byte {
	b = strconv.AppendInt(append(b, "s "...), int64(step), 10)
	b = strconv.AppendInt(append(b, " t"...), int64(ev.Task), 10)
	b = append(append(b, ' '), ev.Kind.String()...)
	if ev.Obj != -1 {
		b = strconv.AppendInt(append(b, " obj="...), int64(ev.Obj), 10)
	}
	if ev.Res != 0 {
		b = strconv.AppendUint(append(b, " res="...), uint64(ev.Res), 10)
	}
	if ev.Val != 0 || valAlwaysWritten(ev.Kind) {
		b = strconv.AppendInt(append(b, " val="...), ev.Val, 10)
	}
	if ev.Flag != 0 {
		b = append(b, " flags="...)
		sep := false
		for i, name := range flagNames {
			if ev.Flag&(1<<i) != 0 {
				if sep {
					b = append(b, ',')
				}
				b = append(b, name...)
				sep = true
			}
		}
	}
	if at, ok := e.t.Where[ev.Loc]; ok {
		b = strconv.AppendQuote(append(b, " at="...), at)
	}
	if m := msgOf(e.t, ev); m != nil {
		b = strconv.AppendQuote(append(b, " msg="...), clip(msgText(m), maxText))
	}
	return b
}
