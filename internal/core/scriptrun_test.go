package core

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// scriptStrategy answers Next from the script's pick events (0 when none
// is left) and notes that it was asked, so the transcript can tell its
// picks from the fair walk's. It is a strategy.Follower, following while
// the script says so (config follow, until unfollow).
type scriptStrategy struct {
	answers   []int
	asked     bool
	following bool
}

func (s *scriptStrategy) Following() bool { return s.following }

func (*scriptStrategy) Name() string { return "script" }
func (*scriptStrategy) Begin(uint64) {}
func (s *scriptStrategy) Next([]strategy.Op) int {
	s.asked = true
	if len(s.answers) == 0 {
		return 0
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a
}
func (*scriptStrategy) Choose(int) int   { return 0 }
func (*scriptStrategy) End(*trace.Trace) {}

// scriptRun plays the part of the carriers and the tasks' code: it feeds
// a script's events to a machine and writes down what it decides.
type scriptRun struct {
	m     *machine // its own, or a Run's (scriptdo_test.go)
	mon   scriptMonitor
	strat scriptStrategy
	named map[string]*Task
	cur   *Task // the task that runs: the machine picked its op last
	busy  bool  // cur has not posted its next op or returned yet
	over  bool  // the machine said the iteration is over
	seen  int   // trace events written to out
	steps int   // step events among them
	out   bytes.Buffer
}

// runScript runs a script and returns its transcript: each event after
// "> ", then, indented, what the machine decided at a next: the clock
// jumps, the enabled set and who picked from it (the strategy, or the fair
// walk), the step as the trace records it, and the decision: run NAME,
// fire NAME (a timer's action runs and the machine decides again), or end:
// a pass or the failure with its report.
func runScript(file string, src []byte) ([]byte, error) {
	lines, err := parseScript(file, src)
	if err != nil {
		return nil, err
	}
	x, cfg := newScriptRun(lines)
	x.m = new(machine)
	x.m.reset(cfg)
	x.configure(lines)
	for i := range lines {
		l := &lines[i]
		fmt.Fprintf(&x.out, "> %s\n", l)
		if err := x.do(l); err != nil {
			return x.out.Bytes(), fmt.Errorf("%s:%d: %v", file, l.line, err)
		}
	}
	return x.out.Bytes(), nil
}

// newScriptRun returns a run of lines and its iteration's configuration
// (from a config event).
func newScriptRun(lines []scriptLine) (*scriptRun, Config) {
	x := &scriptRun{named: map[string]*Task{}}
	cfg := Config{Strategy: &x.strat}
	if len(lines) > 0 && lines[0].verb == "config" {
		l := &lines[0]
		cfg.MaxSteps = int(l.int("max-steps", 0))
		cfg.HardSteps = int(l.int("hard-steps", 0))
		cfg.ClockLimit, _ = l.dur("clock-limit")
		cfg.FairAfter = int(l.int("fair-after", 0))
		cfg.Seed = uint64(l.int("seed", 0))
		cfg.EarlyTimers = int(l.int("early", 0))
		cfg.AllowLeaks = l.flag("allow-leaks")
		x.strat.following = l.flag("follow")
	}
	return x, cfg
}

// configure sets what Config does not say, on the machine reset: the
// polling clock's quiet steps, the drift's pace, the step limit's bound
// for a goroutine alone, the liveness monitor.
func (x *scriptRun) configure(lines []scriptLine) {
	if len(lines) == 0 {
		return
	}
	x.m.pollSteps = max(int(lines[0].int("poll-steps", pollSteps)), 1) // 0 would divide by zero
	x.m.driftSteps = max(int(lines[0].int("drift-steps", driftSteps)), 1)
	x.m.driftAt = x.m.driftSteps
	x.m.checkAt = min(x.m.limitAt, x.m.driftAt)
	x.m.soloSteps = int(lines[0].int("solo-steps", int64(x.m.soloSteps)))
	if d, ok := lines[0].dur("early-pace"); ok {
		x.m.earlyPace = int64(d)
	}
	if lines[0].flag("liveness") {
		x.m.live = &x.mon
	}
}

func (x *scriptRun) task(name string) (*Task, error) {
	if t, ok := x.named[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("no such task %s", name)
}

// running checks that t is the task that runs now.
func (x *scriptRun) running(t *Task) error {
	switch {
	case x.over:
		return fmt.Errorf("the iteration is over")
	case x.cur == nil || !x.busy:
		return fmt.Errorf("%s does not run (no task does)", t.Name)
	case t != x.cur:
		return fmt.Errorf("%s does not run (%s does)", t.Name, x.cur.Name)
	}
	return nil
}

func (x *scriptRun) do(l *scriptLine) error {
	switch l.verb {
	case "config", "pick", "next", "hot", "cold", "unfollow":
		return x.control(l)
	}
	name := l.args[0]
	prefix := l.verb + " " + name
	if x.over {
		return fmt.Errorf("%s: the iteration is over", prefix)
	}
	if l.verb == "spawn" || l.verb == "timer" {
		if err := x.create(l, name); err != nil {
			return fmt.Errorf("%s: %v", prefix, err)
		}
		return nil
	}
	t, err := x.task(name)
	if err != nil {
		return fmt.Errorf("%s: %v", prefix, err)
	}
	switch l.verb {
	case "post":
		if err := x.running(t); err != nil {
			return fmt.Errorf("%s: %v", prefix, err)
		}
		op, err := x.op(l)
		if err != nil {
			return fmt.Errorf("%s: %v", prefix, err)
		}
		if !x.m.post(t, &op) { // as Run.Do posts
			x.m.pend(t)
		}
		x.busy = false
	case "return":
		if err := x.running(t); err != nil {
			return fmt.Errorf("%s: %v", prefix, err)
		}
		x.m.finish(t)
		x.busy = false
	case "unblock":
		if !t.pending() {
			return fmt.Errorf("%s: %s has no pending op", prefix, name)
		}
		x.m.unblock(t)
	case "cancel":
		if t.fire == nil {
			return fmt.Errorf("%s: %s is not a timer", prefix, name)
		}
		if t.state != taskDone {
			x.m.finish(t)
		}
	}
	return nil
}

// op returns the op of a post event.
func (x *scriptRun) op(l *scriptLine) (Op, error) {
	op := Op{Kind: l.kind(l.args[1]), Res: uint32(l.int("res", 0)), Read: l.flag("read"),
		Quiet: l.flag("quiet"), Poll: l.flag("poll"), Val: l.int("val", 0), Obj: -1, Blocked: l.flag("blocked")}
	if v, ok := l.opt("obj"); ok {
		o, err := x.task(v)
		if err != nil {
			return op, fmt.Errorf("obj: %v", err)
		}
		op.Obj = o.ID
	}
	if d, ok := l.dur("deadline"); ok {
		op.HasDeadline, op.Deadline = true, d
	}
	if v, ok := l.opt("on"); ok {
		op.On = waitsOn(v)
	}
	return op, nil
}

// wakes returns the tasks a timer event's firing unblocks.
func (x *scriptRun) wakes(l *scriptLine) ([]*Task, error) {
	var wake []*Task
	if v, ok := l.opt("wake"); ok {
		for _, n := range strings.Split(v, ",") {
			w, err := x.task(n)
			if err != nil {
				return nil, fmt.Errorf("wake: %v", err)
			}
			wake = append(wake, w)
		}
	}
	return wake, nil
}

// timerKind returns the op kind of a timer event.
func (x *scriptRun) timerKind(l *scriptLine) trace.Kind {
	if k, ok := l.opt("kind"); ok {
		return l.kind(k)
	}
	return trace.KindTimer
}

// create runs a spawn or timer event: the running task creates the task,
// or, before anything runs, the main task (spawn) or a timer is created.
func (x *scriptRun) create(l *scriptLine, name string) error {
	if _, ok := x.named[name]; ok {
		return fmt.Errorf("a task of that name exists")
	}
	var parent *Task
	if x.busy {
		parent = x.cur
	}
	var t *Task
	if l.verb == "spawn" {
		if parent == nil && x.m.main != nil {
			return fmt.Errorf("no task runs to spawn it")
		}
		t = x.m.spawn(parent, name, NameKey(name))
		t.Daemon = l.flag("daemon")
	} else {
		wake, err := x.wakes(l)
		if err != nil {
			return err
		}
		at, _ := l.dur("at")
		t = x.m.spawnTimer(parent, name, x.timerKind(l), at, 0, func(*Task) {
			for _, w := range wake {
				if w.pending() {
					x.m.unblock(w)
				}
			}
		})
	}
	x.named[name] = t
	return nil
}

// control runs the events addressed to the machine itself.
func (x *scriptRun) control(l *scriptLine) error {
	switch l.verb {
	case "pick":
		for _, a := range l.args {
			n, _ := strconv.Atoi(a)
			x.strat.answers = append(x.strat.answers, n)
		}
	case "next":
		switch {
		case x.over:
			return fmt.Errorf("next: the iteration is over")
		case x.m.main == nil:
			return fmt.Errorf("next: no main task")
		case x.busy:
			return fmt.Errorf("next: %s runs and has not posted its next op", x.cur.Name)
		}
		x.next()
	case "hot", "cold":
		if x.m.live == nil {
			return fmt.Errorf("%s: no liveness monitor (config liveness)", l.verb)
		}
		if l.verb == "cold" {
			x.mon.hot = false
		} else if !x.mon.hot {
			x.mon.hot, x.mon.since = true, x.m.clock
			x.mon.limit, _ = l.dur("limit")
		}
	case "unfollow":
		if !x.strat.following {
			return fmt.Errorf("unfollow: the strategy does not follow (config follow)")
		}
		x.strat.following = false
	}
	return nil
}

// scriptMonitor is the script's liveness monitor: hot from a virtual time
// on, expired once hot for longer than its limit (0: none), as a Mon is.
type scriptMonitor struct {
	hot          bool
	since, limit int64
}

func (s *scriptMonitor) Hot() bool { return s.hot }

func (s *scriptMonitor) Expired(now int64) string {
	if s.hot && s.limit > 0 && now-s.since > s.limit {
		return fmt.Sprintf("the monitor is hot since %v: longer than its limit of %v", durationOf(s.since), durationOf(s.limit))
	}
	return ""
}

func (s *scriptMonitor) Describe() string {
	if !s.hot {
		return "  no monitor is hot"
	}
	return fmt.Sprintf("  the monitor is hot since %v", durationOf(s.since))
}

// next asks for decisions as Run.pick does: a timer's action runs in place
// and the machine decides again, until a task is to run or the iteration
// is over.
func (x *scriptRun) next() {
	for {
		x.strat.asked = false
		t := x.m.decide()
		x.events(t != nil)
		if t == nil {
			x.over, x.cur = true, nil
			x.end()
			return
		}
		if t.fire != nil {
			fmt.Fprintf(&x.out, "  fire %s\n", t.Name)
			t.fire(t)
			continue
		}
		fmt.Fprintf(&x.out, "  run %s\n", t.Name)
		x.cur, x.busy = t, true
		return
	}
}

// events writes the trace events recorded since the last call; stepped:
// the last is the step just decided, which follows the enabled set.
func (x *scriptRun) events(stepped bool) {
	n := x.m.rec.Len()
	if stepped {
		n--
	}
	for ; x.seen < n; x.seen++ {
		x.event(x.m.rec.At(x.seen))
	}
	if !stepped {
		return
	}
	by := "fair walk"
	if x.strat.asked {
		by = "strategy"
	}
	var b strings.Builder
	for i, op := range x.m.enabled {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%v", x.m.tasks[op.Task].Name, op.Kind)
	}
	fmt.Fprintf(&x.out, "  enabled [%s], %s picks\n", b.String(), by)
	x.event(x.m.rec.At(x.seen))
	x.seen++
}

func (x *scriptRun) event(e *trace.Event) {
	if !e.IsStep() {
		fmt.Fprintf(&x.out, "  clock %v\n", durationOf(e.Val))
		return
	}
	x.steps++
	fmt.Fprintf(&x.out, "  step %d: %s %v", x.steps, x.m.tasks[e.Task].Name, e.Kind)
	if e.Res != 0 {
		fmt.Fprintf(&x.out, " res=%d", e.Res)
	}
	if e.Flag&trace.FlagRead != 0 {
		x.out.WriteString(" read")
	}
	if e.Val != 0 {
		fmt.Fprintf(&x.out, " val=%d", e.Val)
	}
	if e.Obj >= 0 {
		fmt.Fprintf(&x.out, " obj=%s", x.m.tasks[e.Obj].Name)
	}
	x.out.WriteByte('\n')
}

// end writes the outcome of the iteration.
func (x *scriptRun) end() {
	if x.steps != x.m.step {
		fmt.Fprintf(&x.out, "  the machine counts %d steps, its trace %d\n", x.m.step, x.steps)
	}
	f := x.m.failure
	if f == nil {
		fmt.Fprintf(&x.out, "  end: pass at step %d, clock %v\n", x.m.step, durationOf(x.m.clock))
		return
	}
	task := "none"
	if f.Task >= 0 {
		task = x.m.tasks[f.Task].Name
	}
	fmt.Fprintf(&x.out, "  end: %s of task %s at step %d, clock %v\n", f.Kind, task, f.Step, durationOf(x.m.clock))
	for _, line := range strings.Split(f.Message, "\n") {
		fmt.Fprintf(&x.out, "    %s\n", line)
	}
}

// waitsOn names what a blocked op waits on (Op.On).
type waitsOn string

func (w waitsOn) String() string { return string(w) }
