package store

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
)

// Counters are the campaign's totals as of a save.
type Counters struct {
	Runs        int // runs finished
	Errors      int // runs that exited non-zero (hung ones included)
	Hung        int // runs killed at the time limit
	Constrained int // constraints tried
	Satisfied   int // constraints whose order was obtained
	TimedOut    int // constraints resolved by the time-out (infeasible)
	NotReached  int // constraints whose held event never came
	Skipped     int // pairs the planner passed over as predicted infeasible, once per sweep
	Dropped     int // hits dropped because their client left while held
	Protocol    int // protocol errors from clients
}

// counterNames name the counters in a delta; one written before a counter
// existed reads it as 0.
var counterNames = []string{"runs", "errors", "hung", "constrained", "satisfied", "timedout", "notreached", "skipped", "dropped", "protocol"}

func (c *Counters) fields() []*int {
	return []*int{&c.Runs, &c.Errors, &c.Hung, &c.Constrained, &c.Satisfied, &c.TimedOut, &c.NotReached, &c.Skipped, &c.Dropped, &c.Protocol}
}

// GrowthPoint says that after Run runs, Pairs pairs were observed unordered.
// Points are written only when the count changes.
type GrowthPoint struct{ Run, Pairs int }

// RuleCount is a rule's totals as of a save.
type RuleCount struct{ Checked, Broken int }

// Counterexample is a run that broke rule Rule (an index in Meta.Rules).
type Counterexample struct{ Rule, Run int }

// Run is one finished run.
type Run struct {
	Run         int
	Exit        int  // exit code; -1 when killed by a signal
	Hung        bool // killed at the time limit
	Millis      int  // wall-clock duration
	Constraints []coverage.Constraint
	TimedOut    int      // of its constraints
	Trace       []uint32 // event ids in release order
	Stderr      string   // tail of stderr; kept for failed runs only
}

// Failed reports whether the run is an error run.
func (r *Run) Failed() bool { return r.Exit != 0 || r.Hung }

// Delta is what one save adds.
type Delta struct {
	Seq       int
	Counters  Counters
	Cursor    coverage.Planner
	EventBase int      // id of Events[0]
	Events    []string // new event keys
	Original  []uint32 // the original order, in the delta that set it
	Pairs     []coverage.Pair
	Growth    []GrowthPoint
	Rules     []RuleCount // one per Meta.Rules, totals
	Cex       []Counterexample
	Runs      []Run
	Holds     []coverage.Starvation // of the non-error runs above, time-outs only
}

const deltaHeader = "morpheus-fuzz-delta 1"

// Encode writes d in the text format:
//
//	morpheus-fuzz-delta 1
//	seq N
//	counters runs=N errors=N hung=N constrained=N satisfied=N timedout=N notreached=N skipped=N dropped=N protocol=N
//	cursor ROUND D I
//	event ID KEY
//	original ID ID ...
//	pair A B
//	growth RUN PAIRS
//	rule INDEX CHECKED BROKEN
//	cex RULE RUN
//	run RUN EXIT HUNG(0|1) MILLIS TIMEDOUT CONSTRAINTS(F>T,...|-) TRACE(ID,...|-)
//	stderr RUN "GO-QUOTED TEXT"
//	hold RUN HELD STARVED(ID,...)
//	end
func (d *Delta) Encode(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, deltaHeader)
	fmt.Fprintf(bw, "seq %d\n", d.Seq)
	bw.WriteString("counters")
	for i, p := range d.Counters.fields() {
		fmt.Fprintf(bw, " %s=%d", counterNames[i], *p)
	}
	bw.WriteByte('\n')
	fmt.Fprintf(bw, "cursor %d %d %d\n", d.Cursor.Round, d.Cursor.D, d.Cursor.I)
	for i, k := range d.Events {
		fmt.Fprintf(bw, "event %d %s\n", d.EventBase+i, k)
	}
	if d.Original != nil {
		bw.WriteString("original")
		for _, e := range d.Original {
			fmt.Fprintf(bw, " %d", e)
		}
		bw.WriteByte('\n')
	}
	for _, p := range d.Pairs {
		fmt.Fprintf(bw, "pair %d %d\n", p.A, p.B)
	}
	for _, g := range d.Growth {
		fmt.Fprintf(bw, "growth %d %d\n", g.Run, g.Pairs)
	}
	for i, r := range d.Rules {
		fmt.Fprintf(bw, "rule %d %d %d\n", i, r.Checked, r.Broken)
	}
	for _, c := range d.Cex {
		fmt.Fprintf(bw, "cex %d %d\n", c.Rule, c.Run)
	}
	for _, r := range d.Runs {
		hung := 0
		if r.Hung {
			hung = 1
		}
		fmt.Fprintf(bw, "run %d %d %d %d %d %s %s\n", r.Run, r.Exit, hung, r.Millis, r.TimedOut, formatConstraints(r.Constraints), formatIDs(r.Trace))
		if r.Stderr != "" {
			fmt.Fprintf(bw, "stderr %d %s\n", r.Run, strconv.Quote(r.Stderr))
		}
	}
	for _, h := range d.Holds {
		fmt.Fprintf(bw, "hold %d %d %s\n", h.Run, h.Held, formatIDs(h.Starved))
	}
	bw.WriteString("end\n")
	return bw.Flush()
}

func formatIDs(ids []uint32) string {
	if len(ids) == 0 {
		return "-"
	}
	var b strings.Builder
	for i, e := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(e), 10))
	}
	return b.String()
}

func formatConstraints(cs []coverage.Constraint) string {
	if len(cs) == 0 {
		return "-"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%d>%d", c.First, c.Then)
	}
	return strings.Join(parts, ",")
}

// DecodeDelta reads a delta written by Encode. name is used in errors, which
// give the line and what was expected.
func DecodeDelta(r io.Reader, name string) (*Delta, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	d := &Delta{EventBase: -1}
	n := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: line %d: %s", name, n, fmt.Sprintf(format, args...))
	}
	ended := false
	for sc.Scan() {
		n++
		line := sc.Text()
		if ended {
			return nil, bad("text after end")
		}
		if n == 1 {
			if line != deltaHeader {
				return nil, bad("expected %q", deltaHeader)
			}
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		f := strings.Fields(rest)
		var err error
		switch verb {
		case "seq":
			d.Seq, err = ints1(f, "seq N")
		case "counters":
			err = parseCounters(f, &d.Counters)
		case "cursor":
			var v []int
			if v, err = intsN(f, 3, "cursor ROUND D I"); err == nil {
				d.Cursor = coverage.Planner{Round: v[0], D: v[1], I: v[2]}
			}
		case "event":
			if len(f) != 2 {
				err = fmt.Errorf("expected event ID KEY")
				break
			}
			var id int
			if id, err = atoi(f[0]); err != nil {
				break
			}
			if d.EventBase < 0 {
				d.EventBase = id
			}
			if id != d.EventBase+len(d.Events) {
				err = fmt.Errorf("event id %d, expected %d", id, d.EventBase+len(d.Events))
				break
			}
			d.Events = append(d.Events, f[1])
		case "original":
			if d.Original != nil {
				err = fmt.Errorf("second original")
				break
			}
			d.Original = make([]uint32, 0, len(f))
			for _, s := range f {
				var v int
				if v, err = atoi(s); err != nil {
					break
				}
				d.Original = append(d.Original, uint32(v))
			}
		case "pair":
			var v []int
			if v, err = intsN(f, 2, "pair A B"); err == nil {
				d.Pairs = append(d.Pairs, coverage.Pair{A: uint32(v[0]), B: uint32(v[1])})
			}
		case "growth":
			var v []int
			if v, err = intsN(f, 2, "growth RUN PAIRS"); err == nil {
				d.Growth = append(d.Growth, GrowthPoint{v[0], v[1]})
			}
		case "rule":
			var v []int
			if v, err = intsN(f, 3, "rule INDEX CHECKED BROKEN"); err == nil {
				if v[0] != len(d.Rules) {
					err = fmt.Errorf("rule index %d, expected %d", v[0], len(d.Rules))
					break
				}
				d.Rules = append(d.Rules, RuleCount{v[1], v[2]})
			}
		case "cex":
			var v []int
			if v, err = intsN(f, 2, "cex RULE RUN"); err == nil {
				d.Cex = append(d.Cex, Counterexample{v[0], v[1]})
			}
		case "run":
			var run Run
			if run, err = parseRun(f); err == nil {
				d.Runs = append(d.Runs, run)
			}
		case "stderr":
			num, q, _ := strings.Cut(rest, " ")
			var id int
			if id, err = atoi(num); err != nil {
				break
			}
			if len(d.Runs) == 0 || d.Runs[len(d.Runs)-1].Run != id {
				err = fmt.Errorf("stderr of run %d does not follow its run line", id)
				break
			}
			if d.Runs[len(d.Runs)-1].Stderr, err = strconv.Unquote(q); err != nil {
				err = fmt.Errorf("stderr: expected a quoted string")
			}
		case "hold":
			var h coverage.Starvation
			if h, err = parseHold(f); err == nil {
				d.Holds = append(d.Holds, h)
			}
		case "end":
			if rest != "" {
				err = fmt.Errorf("expected end alone")
			}
			ended = true
		default:
			err = fmt.Errorf("unknown record %q", clip(verb))
		}
		if err != nil {
			return nil, bad("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, n+1, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: empty, expected %q", name, deltaHeader)
	}
	if !ended {
		return nil, fmt.Errorf("%s: line %d: cut short, expected end", name, n)
	}
	if d.EventBase < 0 {
		d.EventBase = 0
	}
	return d, nil
}

func parseCounters(f []string, c *Counters) error {
	ps := c.fields()
	seen := map[string]bool{}
	for _, kv := range f {
		k, v, ok := strings.Cut(kv, "=")
		i := sort.SearchStrings(sortedCounterNames, k)
		if !ok || i == len(sortedCounterNames) || sortedCounterNames[i] != k || seen[k] {
			return fmt.Errorf("counters: %q: expected one NAME=N for each of %s", clip(kv), strings.Join(counterNames, ", "))
		}
		seen[k] = true
		n, err := atoi(v)
		if err != nil {
			return fmt.Errorf("counters: %s: %v", k, err)
		}
		for j, name := range counterNames {
			if name == k {
				*ps[j] = n
			}
		}
	}
	return nil
}

var sortedCounterNames = func() []string {
	s := append([]string(nil), counterNames...)
	sort.Strings(s)
	return s
}()

func parseRun(f []string) (Run, error) {
	if len(f) != 7 {
		return Run{}, fmt.Errorf("expected run RUN EXIT HUNG MILLIS TIMEDOUT CONSTRAINTS TRACE")
	}
	var r Run
	var err error
	if r.Run, err = atoi(f[0]); err != nil {
		return r, err
	}
	if r.Exit, err = strconv.Atoi(f[1]); err != nil || r.Exit < -1 || r.Exit > 255 {
		return r, fmt.Errorf("exit code %q: expected -1 to 255", clip(f[1]))
	}
	switch f[2] {
	case "0":
	case "1":
		r.Hung = true
	default:
		return r, fmt.Errorf("hung %q: expected 0 or 1", clip(f[2]))
	}
	if r.Millis, err = atoi(f[3]); err != nil {
		return r, err
	}
	if r.TimedOut, err = atoi(f[4]); err != nil {
		return r, err
	}
	if f[5] != "-" {
		for _, c := range strings.Split(f[5], ",") {
			a, b, ok := strings.Cut(c, ">")
			x, err1 := atoi(a)
			y, err2 := atoi(b)
			if !ok || err1 != nil || err2 != nil {
				return r, fmt.Errorf("constraint %q: expected FIRST>THEN", clip(c))
			}
			r.Constraints = append(r.Constraints, coverage.Constraint{First: uint32(x), Then: uint32(y)})
		}
	}
	if f[6] != "-" {
		for _, s := range strings.Split(f[6], ",") {
			v, err := atoi(s)
			if err != nil {
				return r, fmt.Errorf("trace: %v", err)
			}
			r.Trace = append(r.Trace, uint32(v))
		}
	}
	return r, nil
}

func parseHold(f []string) (coverage.Starvation, error) {
	var h coverage.Starvation
	if len(f) != 3 || f[2] == "-" {
		return h, fmt.Errorf("expected hold RUN HELD STARVED(ID,...)")
	}
	v, err := intsN(f[:2], 2, "hold RUN HELD STARVED(ID,...)")
	if err != nil {
		return h, err
	}
	h.Run, h.Held = v[0], uint32(v[1])
	for _, s := range strings.Split(f[2], ",") {
		id, err := atoi(s)
		if err != nil {
			return h, fmt.Errorf("hold: starved: %v", err)
		}
		h.Starved = append(h.Starved, uint32(id))
	}
	return h, nil
}

func ints1(f []string, want string) (int, error) {
	v, err := intsN(f, 1, want)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func intsN(f []string, n int, want string) ([]int, error) {
	if len(f) != n {
		return nil, fmt.Errorf("expected %s", want)
	}
	out := make([]int, n)
	for i, s := range f {
		v, err := atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", want, err)
		}
		out[i] = v
	}
	return out, nil
}

// atoi parses a non-negative integer below 2^32.
func atoi(s string) (int, error) {
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number in [0, 2^32)", clip(s))
	}
	return int(v), nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
