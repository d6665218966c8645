package trace

import (
	"strconv"
	"strings"
)

// header decodes header line i (an index in headers) with fields fs.
func (d *decoder) header(i int, fs []field, s string) *FormatError {
	h := headers[i]
	if h == "ran" && d.section == inHeader && d.next == i+1 {
		return d.ran(fs, s) // one line per run
	}
	if d.section != inHeader || i < d.next {
		if d.have&(1<<i) != 0 {
			return expected(h, "one "+h+" line", s)
		}
		return expected(h, "header lines first, in the order "+strings.Join(headers[:], ", "), s)
	}
	if err := d.requireHeaders(i, s); err != nil {
		return err
	}
	d.next, d.have = i+1, d.have|1<<i
	hd := &d.t.Header
	var err *FormatError
	switch h {
	case "morpheus-trace":
		if len(fs) != 2 || fs[1].key != "" || fs[1].quoted {
			return expected("header", headerForms[i], s)
		}
		if fs[1].val != strconv.Itoa(FormatVersion) {
			return expected("version", "version "+strconv.Itoa(FormatVersion)+" (the only one this build reads)", fs[1].val)
		}
	case "test":
		hd.Test, err = nameLine(h, fs, s)
	case "strategy":
		hd.Strategy, err = nameLine(h, fs, s)
	case "seed":
		if len(fs) != 2 || fs[1].key != "" {
			return expected(h, headerForms[i], s)
		}
		hd.Seed, err = uintField(h, fs[1], 64)
	case "iteration":
		if len(fs) != 2 || fs[1].key != "" {
			return expected(h, headerForms[i], s)
		}
		var n int64
		n, err = intField(h, fs[1], strconv.IntSize)
		hd.Iteration = int(n)
	case "options":
		err = d.options(fs, s)
	case "ran":
		err = d.ran(fs, s)
	case "failure":
		err = d.failure(fs, s)
	}
	return err
}

// options decodes "options NAME=VALUE ...": names as OptionName allows,
// each once, values bare or quoted.
func (d *decoder) options(fs []field, s string) *FormatError {
	if len(fs) < 2 {
		return expected("options", `"options <name>=<value> ...", at least one`, s)
	}
	opts := make(map[string]string, len(fs)-1)
	for _, f := range fs[1:] {
		if !OptionName(f.key) {
			return expected("options", "name=value with a name of lower-case letters and digits", f.raw)
		}
		if _, dup := opts[f.key]; dup {
			return expected("options", "each name once", f.raw)
		}
		v := f.val
		if !f.quoted && !isBare(v) {
			return expected("options", "a bare or quoted value", f.raw)
		}
		if len(v) > maxName {
			return expected("options", "a value of at most "+strconv.Itoa(maxName)+" bytes", f.raw)
		}
		opts[f.key] = v
	}
	d.t.Header.Options = opts
	return nil
}

// nameLine decodes a line "keyword NAME", NAME being bare or quoted.
func nameLine(kw string, fs []field, s string) (string, *FormatError) {
	if len(fs) != 2 {
		return "", expected(kw, `"`+kw+` <name>", quoted if it has spaces`, s)
	}
	return nameField(kw, fs[1])
}

// nameField decodes a name: bare when isBare allows, else quoted. A bare name
// may contain "=" (as in a subtest "TestX/n=3"), which splitFields takes for
// key=value; the name is then the field as written.
func nameField(field string, f field) (string, *FormatError) {
	name := f.raw
	if f.quoted && f.key == "" {
		name = f.val
	} else if f.quoted || !isBare(name) {
		return "", expected(field, "a name or a quoted string", f.raw)
	}
	if len(name) > maxName {
		return "", expected(field, "a name of at most "+strconv.Itoa(maxName)+" bytes", f.raw)
	}
	return name, nil
}

// failure decodes "failure KIND [task=N] [step=N] [limit=NS] [at=Q] [msg=Q]".
func (d *decoder) failure(fs []field, s string) *FormatError {
	if len(fs) < 2 {
		return expected("failure", headerForms[len(headers)-1], s)
	}
	kind, err := nameField("failure", fs[1])
	if err != nil {
		return err
	}
	f := &Failure{Kind: kind, Task: -1}
	var seen keys
	for _, fl := range fs[2:] {
		if err = seen.add("failure", fl, "task", "step", "limit", "at", "msg"); err != nil {
			return err
		}
		switch fl.key {
		case "task":
			var n int64
			n, err = intField(fl.key, fl, 32)
			if err == nil && n < -1 {
				err = expected(fl.key, "a task number or -1", fl.val)
			}
			f.Task = int32(n)
		case "step":
			var n int64
			n, err = intField(fl.key, fl, strconv.IntSize)
			if err == nil && n < 0 {
				err = expected(fl.key, "a step number", fl.val)
			}
			f.Step = int(n)
		case "limit":
			f.ClockLimit, err = intField(fl.key, fl, 64)
			if err == nil && f.ClockLimit <= 0 {
				err = expected(fl.key, "a clock limit in ns above 0", fl.val)
			}
		case "at":
			f.Loc, err = stringField(fl, maxName)
		case "msg":
			f.Message, err = stringField(fl, maxText)
		}
		if err != nil {
			return err
		}
	}
	d.t.Header.Failure = f
	return nil
}

// task decodes "task ID parent=N key=0xHEX name=Q".
func (d *decoder) task(fs []field, s string) *FormatError {
	t := d.t
	id := strconv.Itoa(len(t.Tasks))
	if len(fs) < 2 || fs[1].key != "" || fs[1].quoted {
		return expected("task", `"task `+id+` parent=<task> key=<hex> name=<quoted>"`, s)
	}
	if fs[1].val != id {
		return expected("task", "task "+id+" (tasks are listed in ID order from 0)", fs[1].val)
	}
	tk := Task{ID: int32(len(t.Tasks)), Parent: -1}
	var seen keys
	var err *FormatError
	for _, fl := range fs[2:] {
		if err = seen.add("task", fl, "parent", "key", "name"); err != nil {
			return err
		}
		switch fl.key {
		case "parent":
			var n int64
			n, err = intField(fl.key, fl, 32)
			if err == nil && n < -1 {
				err = expected(fl.key, "a task number or -1", fl.val)
			}
			tk.Parent = int32(n)
		case "key":
			hex, ok := strings.CutPrefix(fl.val, "0x")
			if fl.quoted || !ok {
				return expected(fl.key, "0x<hex>", fl.raw)
			}
			v, perr := strconv.ParseUint(hex, 16, 64)
			if perr != nil {
				return expected(fl.key, "0x<hex> of at most 64 bits", fl.raw)
			}
			tk.Key = v
		case "name":
			tk.Name, err = stringField(fl, maxName)
		}
		if err != nil {
			return err
		}
	}
	t.Tasks = append(t.Tasks, tk)
	d.taskLines = append(d.taskLines, d.line)
	return nil
}

// clock decodes "clock NS".
func (d *decoder) clock(fs []field, s string) *FormatError {
	if len(fs) != 2 || fs[1].key != "" {
		return expected("clock", `"clock <nanoseconds>"`, s)
	}
	ns, err := intField("clock", fs[1], 64)
	if err != nil {
		return err
	}
	d.t.Events = append(d.t.Events, Event{Task: -1, Obj: -1, Kind: KindClock, Val: ns})
	return nil
}
