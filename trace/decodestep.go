package trace

import (
	"strconv"
	"strings"
)

// stepLine decodes "s N tT KIND [obj=N] [res=N] [val=N] [flags=F,...]
// [at=Q] [msg=Q]".
func (d *decoder) stepLine(fs []field, s string) *FormatError {
	t := d.t
	if len(fs) < 4 || fs[1].key != "" || fs[2].key != "" || fs[3].key != "" {
		return expected("step", `"s <step> t<task> <kind> [key=value ...]"`, s)
	}
	want := strconv.Itoa(d.step + 1)
	if fs[1].quoted || fs[1].val != want {
		return expected("step", "step "+want+" (steps count from 1 without gaps)", fs[1].raw)
	}
	n := int64(len(t.Tasks))
	e := Event{Obj: -1}
	task, err := stepTask(fs[2], n)
	if err != nil {
		return err
	}
	e.Task = task
	k, ok := ParseKind(fs[3].val)
	if !ok || fs[3].quoted {
		return expected("kind", "an op kind", fs[3].raw)
	}
	if k == KindClock {
		return expected("kind", "a step kind (clock events are clock lines)", fs[3].raw)
	}
	e.Kind = k
	var msg *field
	var seen keys
	for i := range fs[4:] {
		fl := &fs[4+i]
		if err = seen.add("step", *fl, "obj", "res", "val", "flags", "at", "msg"); err != nil {
			return err
		}
		switch fl.key {
		case "obj":
			var v int64
			if v, err = intField(fl.key, *fl, 32); err == nil && (v < -1 || v >= n) {
				err = expected(fl.key, "a task number -1.."+strconv.FormatInt(n-1, 10), fl.val)
			}
			e.Obj = int32(v)
		case "res":
			var v uint64
			v, err = uintField(fl.key, *fl, 32)
			e.Res = uint32(v)
		case "val":
			e.Val, err = intField(fl.key, *fl, 64)
		case "flags":
			e.Flag, err = flagsField(*fl)
		case "at":
			var at string
			if at, err = stringField(*fl, maxName); err == nil {
				e.Loc = d.intern(at)
			}
		case "msg":
			msg = fl
		}
		if err != nil {
			return err
		}
	}
	if msg != nil {
		if err := d.msg(&e, *msg); err != nil {
			return err
		}
	}
	t.Events = append(t.Events, e)
	d.step++
	return nil
}

// stepTask decodes the "tT" field of a step line. A step is always some
// task's: only clock events belong to the runtime (task -1).
func stepTask(f field, n int64) (int32, *FormatError) {
	if num, ok := strings.CutPrefix(f.val, "t"); ok && !f.quoted {
		if v, err := strconv.ParseInt(num, 10, 32); err == nil && v >= 0 && v < n {
			return int32(v), nil
		}
	}
	return 0, expected("task", "t<number> < "+strconv.FormatInt(n, 10)+" tasks", f.raw)
}

// flagsField decodes a comma-separated list of flag names.
func flagsField(f field) (Flag, *FormatError) {
	var fl Flag
	if f.quoted {
		return 0, expected(f.key, flagList, f.raw)
	}
	for name := range strings.SplitSeq(f.val, ",") {
		i := 0
		for i < len(flagNames) && flagNames[i] != name {
			i++
		}
		if i == len(flagNames) {
			return 0, expected(f.key, flagList, name)
		}
		fl |= 1 << i
	}
	return fl, nil
}

// intern returns the Loc of location text at, numbering new ones from 1.
func (d *decoder) intern(at string) uint64 {
	if loc, ok := d.locs[at]; ok {
		return loc
	}
	if d.locs == nil {
		d.locs = make(map[string]uint64)
		d.t.Where = make(map[uint64]string)
	}
	loc := uint64(len(d.locs) + 1)
	d.locs[at] = loc
	d.t.Where[loc] = at
	return loc
}

// msg stores the content f of the message that send event e sends.
func (d *decoder) msg(e *Event, f field) *FormatError {
	text, err := stringField(f, maxText)
	if err != nil {
		return err
	}
	if !carriesMsg(e) {
		return expected("msg", "msg only on a send, timer or receive step", f.raw)
	}
	if e.Val < 0 || e.Val > maxMsgID {
		return expected("val", "a message id 0.."+strconv.Itoa(maxMsgID)+" on a step with msg", strconv.FormatInt(e.Val, 10))
	}
	t := d.t
	if need := int(e.Val) + 1; need > len(t.Msgs) {
		t.Msgs = append(t.Msgs, make([]any, need-len(t.Msgs))...)
	}
	if old := t.Msgs[e.Val]; old != nil && old != text {
		return expected("msg", "the text of the earlier send of message "+strconv.FormatInt(e.Val, 10), f.raw)
	}
	t.Msgs[e.Val] = text
	return nil
}
