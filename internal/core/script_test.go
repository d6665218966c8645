package core

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/trace"
)

// Scripts drive the scheduler's state machine (machine) from a test, one
// event a line (scriptrun_test.go runs them on a bare machine,
// scriptdo_test.go through the production path: Run.Do on carriers).
// Blank lines are ignored, and so is a comment: from a '#' that begins a
// word to the end of the line.
// A line is a verb, its positional arguments, then options, key=value or a
// bare flag:
//
//	config [max-steps=N] [hard-steps=N] [poll-steps=N] [drift-steps=N] [solo-steps=N] [clock-limit=D] [fair-after=N] [seed=N] [early=N] [early-pace=D] [allow-leaks] [liveness] [follow]
//	spawn NAME [daemon]                 the running task (none: this is the main task) spawns NAME
//	timer NAME at=D [kind=KIND] [wake=A,B]  a runtime-owned task whose op is due at D; firing unblocks A, B
//	post NAME KIND [res=N] [read] [quiet] [poll] [val=N] [obj=NAME] [blocked] [deadline=D] [on=TEXT]
//	unblock NAME                        NAME's pending op becomes enabled
//	return NAME                         the running task returns
//	cancel NAME                         a timer is cancelled
//	pick N...                           the strategy's next answers (index into the enabled set; default 0)
//	next                                ask the machine for its decision
//	hot [limit=D]                       the liveness monitor owes progress from now (on, for at most D)
//	cold                                the monitor's owed progress happened
//	unfollow                            the following strategy stops following (a replay past its schedule)
//
// D is a virtual time or deadline written as a Go duration (1.5s), KIND an
// op kind as traces name it (send, recv, sleep, ...). config, if present,
// is the first event. With liveness, the machine has a liveness monitor
// (hot and cold need it), as a test with monitors does; with follow, the
// strategy follows a recorded schedule until unfollow, as a replay does,
// and picks every step meanwhile.

// scriptLine is one event of a script.
type scriptLine struct {
	line int
	verb string
	args []string
	opts []scriptOpt
}

// scriptOpt is an option of a line: key=val, or a flag (val "" and !set).
type scriptOpt struct {
	key, val string
	set      bool // written key=val
}

// An optType says what an option's value is.
type optType uint8

const (
	optFlag   optType = iota // a bare flag
	optInt                   // a decimal integer
	optUint                  // a non-negative decimal integer
	optDur                   // a Go duration, not negative
	optName                  // a task name
	optNames                 // task names, comma-separated
	optOpKind                // an op kind
	optText                  // any text without blanks
)

// verbSpec is the shape of a verb's lines: its positional arguments (names,
// then an op kind when kind is set) and its options.
type verbSpec struct {
	names    int  // positional task names
	kind     bool // then an op kind
	variadic bool // any number of non-negative integers instead (pick)
	opts     map[string]optType
	required []string
}

var verbs = map[string]verbSpec{
	"config": {opts: map[string]optType{"max-steps": optUint, "hard-steps": optUint, "poll-steps": optUint, "drift-steps": optUint, "solo-steps": optUint, "clock-limit": optDur, "fair-after": optInt,
		"seed": optUint, "early": optUint, "early-pace": optDur, "allow-leaks": optFlag, "liveness": optFlag, "follow": optFlag}},
	"spawn": {names: 1, opts: map[string]optType{"daemon": optFlag}},
	"timer": {names: 1, opts: map[string]optType{"at": optDur, "kind": optOpKind, "wake": optNames}, required: []string{"at"}},
	"post": {names: 1, kind: true, opts: map[string]optType{"res": optUint, "read": optFlag, "quiet": optFlag, "poll": optFlag, "val": optInt,
		"obj": optName, "blocked": optFlag, "deadline": optDur, "on": optText}},
	"unblock":  {names: 1},
	"return":   {names: 1},
	"cancel":   {names: 1},
	"pick":     {variadic: true},
	"next":     {},
	"hot":      {opts: map[string]optType{"limit": optDur}},
	"cold":     {},
	"unfollow": {},
}

// parseScript decodes a script; errors name file:line.
func parseScript(file string, src []byte) ([]scriptLine, error) {
	var out []scriptLine
	for i, text := range strings.Split(string(src), "\n") {
		fields := strings.Fields(text)
		for j, f := range fields {
			if strings.HasPrefix(f, "#") {
				fields = fields[:j]
				break
			}
		}
		if len(fields) == 0 {
			continue
		}
		l, err := parseLine(i+1, fields)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, i+1, err)
		}
		if l.verb == "config" && len(out) > 0 {
			return nil, fmt.Errorf("%s:%d: config must be the first event", file, i+1)
		}
		out = append(out, l)
	}
	return out, nil
}

func parseLine(n int, fields []string) (scriptLine, error) {
	l := scriptLine{line: n, verb: fields[0]}
	spec, ok := verbs[l.verb]
	if !ok {
		return l, fmt.Errorf("unknown event %q", l.verb)
	}
	rest := fields[1:]
	if spec.variadic {
		if len(rest) == 0 {
			return l, fmt.Errorf("%s: no answers", l.verb)
		}
		for _, a := range rest {
			if _, err := strconv.ParseUint(a, 10, 31); err != nil {
				return l, fmt.Errorf("%s: %q is not an index", l.verb, a)
			}
		}
		l.args = rest
		return l, nil
	}
	npos := spec.names
	if spec.kind {
		npos++
	}
	for i := 0; i < npos; i++ {
		if i >= len(rest) || strings.Contains(rest[i], "=") {
			what := "a task name"
			if i == spec.names {
				what = "an op kind"
			}
			return l, fmt.Errorf("%s: missing %s", l.verb, what)
		}
		a := rest[i]
		if i == spec.names {
			if err := checkKind(a); err != nil {
				return l, fmt.Errorf("%s: %v", l.verb, err)
			}
		} else if err := checkName(a); err != nil {
			return l, fmt.Errorf("%s: %v", l.verb, err)
		}
		l.args = append(l.args, a)
	}
	seen := map[string]bool{}
	for _, f := range rest[npos:] {
		key, val, set := strings.Cut(f, "=")
		kind, ok := spec.opts[key]
		switch {
		case !ok:
			return l, fmt.Errorf("%s: unknown option %q", l.verb, key)
		case seen[key]:
			return l, fmt.Errorf("%s: option %s given twice", l.verb, key)
		case set == (kind == optFlag):
			if set {
				return l, fmt.Errorf("%s: %s is a flag, without a value", l.verb, key)
			}
			return l, fmt.Errorf("%s: %s needs a value (%s=...)", l.verb, key, key)
		}
		if err := checkOpt(kind, val); err != nil {
			return l, fmt.Errorf("%s: %s: %v", l.verb, key, err)
		}
		seen[key] = true
		l.opts = append(l.opts, scriptOpt{key: key, val: val, set: set})
	}
	for _, k := range spec.required {
		if !seen[k] {
			return l, fmt.Errorf("%s: missing %s=...", l.verb, k)
		}
	}
	return l, nil
}

func checkOpt(kind optType, val string) error {
	switch kind {
	case optInt:
		_, err := strconv.ParseInt(val, 10, 32)
		return numErr(val, err)
	case optUint:
		_, err := strconv.ParseUint(val, 10, 63)
		return numErr(val, err)
	case optDur:
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return fmt.Errorf("%q is not a virtual time (a duration such as 1.5s)", val)
		}
	case optName:
		return checkName(val)
	case optNames:
		for _, n := range strings.Split(val, ",") {
			if err := checkName(n); err != nil {
				return err
			}
		}
	case optOpKind:
		return checkKind(val)
	case optText:
		if val == "" {
			return fmt.Errorf("empty")
		}
	}
	return nil
}

func numErr(val string, err error) error {
	if err != nil {
		return fmt.Errorf("%q is not a number in range", val)
	}
	return nil
}

// checkName accepts task names: letters, digits, '_', '-', '.', '@'.
func checkName(n string) error {
	if n == "" {
		return fmt.Errorf("empty task name")
	}
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-.@", c)) {
			return fmt.Errorf("task name %q: only letters, digits and _-.@", n)
		}
	}
	return nil
}

func checkKind(k string) error {
	if kind, ok := trace.ParseKind(k); !ok || kind == trace.KindClock {
		return fmt.Errorf("unknown op kind %q", k)
	}
	return nil
}

// opt returns the value of option key and whether the line has it.
func (l *scriptLine) opt(key string) (string, bool) {
	for _, o := range l.opts {
		if o.key == key {
			return o.val, true
		}
	}
	return "", false
}

// The accessors below read options parseLine has checked.

func (l *scriptLine) flag(key string) bool { _, ok := l.opt(key); return ok }

func (l *scriptLine) int(key string, def int64) int64 {
	v, ok := l.opt(key)
	if !ok {
		return def
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

func (l *scriptLine) dur(key string) (int64, bool) {
	v, ok := l.opt(key)
	if !ok {
		return 0, false
	}
	d, _ := time.ParseDuration(v)
	return int64(d), true
}

func (l *scriptLine) kind(s string) trace.Kind {
	k, _ := trace.ParseKind(s)
	return k
}

// String writes the line back in the script format.
func (l scriptLine) String() string {
	parts := append([]string{l.verb}, l.args...)
	for _, o := range l.opts {
		if o.set {
			parts = append(parts, o.key+"="+o.val)
		} else {
			parts = append(parts, o.key)
		}
	}
	return strings.Join(parts, " ")
}
