package core

import (
	"errors"
	"fmt"

	"github.com/morpheus-go/morpheus/trace"
)

// runScriptDo runs a script through the production path, as runScript
// runs it on a bare machine, and writes the same transcript: a Worker
// executes the iteration, each task of the script is a task on a carrier
// whose body plays the script's lines while it runs (Run.Spawn,
// Run.SpawnTimer, Run.Unblock, Run.Cancel), and a post is a Run.Do that
// returns when the machine picks the op. So the hand-off's own paths (Do's
// post and first decision, a timer's action run in place, a task's exit op
// and end, the teardown) are driven by every script too.
//
// The lines up to the first next are the setup's, before the main task
// starts (Worker.Execute makes the main task: the script's first event, or
// its second after config, must spawn main). A line runs in the task that
// runs when it is reached; after a post, until the next, no task runs. A
// task returns as Go code does: its body ends, and the runtime posts its
// exit op (so a script's return follows a post NAME exit, with no options
// but res, and its next), whose exit hook plays the lines up to the
// return.
func runScriptDo(file string, src []byte) ([]byte, error) {
	lines, err := parseScript(file, src)
	if err != nil {
		return nil, err
	}
	x, cfg := newScriptRun(lines)
	d := &scriptDo{x: x, lines: lines, file: file}
	w := NewWorker()
	defer w.Close()
	w.Execute(cfg, d.setup, d.body)
	if d.err != nil {
		return x.out.Bytes(), d.err
	}
	if d.i < len(lines) {
		return x.out.Bytes(), d.errorf(&lines[d.i], "the iteration is over")
	}
	if !d.done {
		x.events(false)
		x.over, x.cur = true, nil
		x.end()
	}
	return x.out.Bytes(), nil
}

// scriptDo is a script's run through the production path.
type scriptDo struct {
	x     *scriptRun // the transcript, the names, the strategy and monitor
	r     *Run
	lines []scriptLine
	file  string
	i     int   // the next line to play
	done  bool  // the script ended before the iteration: nothing more is written
	err   error // the first error; the iteration then ends without playing more
}

// errStop ends the iteration of a script that failed to play (the task
// that found the error panics with it).
var errStop = errors.New("the script stopped")

func (d *scriptDo) errorf(l *scriptLine, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", d.file, l.line, fmt.Sprintf(format, args...))
}

// fail records err and stops the iteration from the running task.
func (d *scriptDo) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	panic(errStop)
}

// line returns the next line, written to the transcript, or nil at the
// end of the script (then nothing more is written).
func (d *scriptDo) line() *scriptLine {
	if d.i == len(d.lines) {
		d.done = true
		return nil
	}
	l := &d.lines[d.i]
	d.i++
	fmt.Fprintf(&d.x.out, "> %s\n", l)
	return l
}

// stopped reports whether the script ended or failed: tasks then end and
// timers do nothing, and the iteration runs out unwritten.
func (d *scriptDo) stopped() bool { return d.done || d.err != nil }

// setup plays the lines before the main task starts.
func (d *scriptDo) setup(r *Run) {
	d.r, d.x.m = r, &r.m
	d.x.configure(d.lines)
	if d.x.m.live != nil {
		r.SetLiveness(&d.x.mon) // as configure, through the runtime's way
	}
	if d.i < len(d.lines) && d.lines[d.i].verb == "config" {
		d.line()
	}
	l := d.line()
	if l == nil {
		return
	}
	if l.verb != "spawn" || l.args[0] != "main" {
		d.err = d.errorf(l, "%s: the production path's first task is the main task: spawn main", l.verb)
		return
	}
	main := r.Main()
	main.Daemon = l.flag("daemon")
	main.SetOnExit(0, d.exited)
	d.x.named["main"] = main
	if err := d.toNext(); err != nil {
		d.err = err
	}
}

// body is every task's body: it plays the script's lines as its task.
func (d *scriptDo) body() {
	t := d.r.Current()
	d.resumed(t)
	if err := d.play(t); err != nil {
		d.fail(err)
	}
}

// resumed writes the decision that made t run.
func (d *scriptDo) resumed(t *Task) {
	if d.stopped() {
		return
	}
	d.x.events(true)
	fmt.Fprintf(&d.x.out, "  run %s\n", t.Name)
	d.x.cur, d.x.busy = t, true
}

// play plays lines as t, the running task, until t's body ends: a post of
// its exit op, the end of the script, or an error.
func (d *scriptDo) play(t *Task) error {
	for !d.stopped() {
		l := d.line()
		if l == nil {
			return nil
		}
		switch l.verb {
		case "post":
			if err := d.running(l, t); err != nil {
				return err
			}
			op, err := d.x.op(l)
			if err != nil {
				return d.errorf(l, "post %s: %v", t.Name, err)
			}
			if op.Kind == trace.KindExit {
				if op != (Op{Kind: trace.KindExit, Obj: -1, Res: op.Res}) {
					return d.errorf(l, "post %s: an exit op takes no option but res on the production path", t.Name)
				}
				t.SetOnExit(op.Res, d.exited)
				d.x.busy = false
				return d.toNext() // the body returns: the runtime posts the exit op
			}
			d.x.busy = false
			if err := d.toNext(); err != nil {
				return err
			}
			if d.stopped() {
				return nil
			}
			d.r.Do(t, op)
			d.resumed(t)
		case "return":
			return d.errorf(l, "return %s: on the production path a task returns after its exit op (post %s exit, next)", t.Name, t.Name)
		case "next":
			return d.errorf(l, "next: %s runs and has not posted its next op", t.Name)
		default:
			if err := d.other(l, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// exited is every task's exit hook: its exit op was picked, and it plays
// the lines up to the task's return, then those up to the next decision.
func (d *scriptDo) exited(t *Task, _ any) {
	d.resumed(t)
	for !d.stopped() {
		l := d.line()
		if l == nil {
			return
		}
		switch l.verb {
		case "return":
			if err := d.running(l, t); err != nil {
				d.fail(err)
			}
			d.x.busy = false
			if err := d.toNext(); err != nil {
				d.fail(err)
			}
			return // the task ends: the runtime decides what runs next
		case "post", "next":
			d.fail(d.errorf(l, "%s: %s has run its exit op: only its return can follow", l.verb, t.Name))
		default:
			if err := d.other(l, t); err != nil {
				d.fail(err)
			}
		}
	}
}

// running checks that the task a line names is t, the one that runs.
func (d *scriptDo) running(l *scriptLine, t *Task) error {
	if l.args[0] != t.Name {
		return d.errorf(l, "%s %s: %s does not run (%s does)", l.verb, l.args[0], l.args[0], t.Name)
	}
	return nil
}

// toNext plays the lines after a post or a return, while no task runs, up
// to the next decision; at the end of the script it marks the run done.
func (d *scriptDo) toNext() error {
	for {
		l := d.line()
		if l == nil {
			return nil
		}
		switch l.verb {
		case "next":
			d.x.strat.asked = false
			return nil
		case "spawn", "post", "return":
			return d.errorf(l, "%s %s: no task runs", l.verb, l.args[0])
		default:
			if err := d.other(l, nil); err != nil {
				return err
			}
		}
	}
}

// other plays a line that is neither a post nor a return nor a next, by
// t, the running task (nil: none runs).
func (d *scriptDo) other(l *scriptLine, t *Task) error {
	x, r := d.x, d.r
	switch l.verb {
	case "config":
		return d.errorf(l, "config must be the first event")
	case "pick", "hot", "cold", "unfollow":
		if err := x.control(l); err != nil {
			return d.errorf(l, "%v", err)
		}
		return nil
	}
	name := l.args[0]
	if l.verb == "spawn" || l.verb == "timer" {
		if _, ok := x.named[name]; ok {
			return d.errorf(l, "%s %s: a task of that name exists", l.verb, name)
		}
	}
	switch l.verb {
	case "spawn":
		c := r.Spawn(t, name, NameKey(name), d.body)
		c.Daemon = l.flag("daemon")
		c.SetOnExit(0, d.exited)
		x.named[name] = c
	case "timer":
		wake, err := x.wakes(l)
		if err != nil {
			return d.errorf(l, "timer %s: %v", name, err)
		}
		at, _ := l.dur("at")
		x.named[name] = r.SpawnTimer(t, name, x.timerKind(l), at, 0, func(tt *Task) {
			if d.stopped() {
				return
			}
			x.events(true)
			fmt.Fprintf(&x.out, "  fire %s\n", tt.Name)
			for _, w := range wake {
				if _, ok := w.PendingOp(); ok {
					r.Unblock(w)
				}
			}
			x.strat.asked = false // the machine decides again
		})
	case "unblock":
		u, err := x.task(name)
		if err != nil {
			return d.errorf(l, "unblock %s: %v", name, err)
		}
		if _, ok := u.PendingOp(); !ok {
			return d.errorf(l, "unblock %s: %s has no pending op", name, name)
		}
		r.Unblock(u)
	case "cancel":
		u, err := x.task(name)
		if err != nil {
			return d.errorf(l, "cancel %s: %v", name, err)
		}
		if u.fire == nil {
			return d.errorf(l, "cancel %s: %s is not a timer", name, name)
		}
		r.Cancel(u)
	}
	return nil
}
