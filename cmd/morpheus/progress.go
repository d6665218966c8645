package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/results"
)

// progressView draws the progress of the Checks of a go test run from
// their progress file. On a terminal it keeps one line up to date with
// carriage returns; elsewhere it prints a plain line every tenth of a
// Check's planned iterations, at least every plainEvery of the Check's
// time (a Check writes a progress line at least every couple of seconds
// while its iterations end, so this holds for unlimited runs too), and
// when it ends. Rates and times come from the wall time each Check
// reports; it never reaches the tests' decisions.
type progressView struct {
	w    io.Writer
	tty  bool
	fol  results.Follower
	runs map[string]*runState // by package, test and shard
	mu   sync.Mutex           // orders drawing and go test's output (terminal)
	cur  string               // the line drawn last, "" after a newline (terminal)
	pkgs packageOrder         // plain lines, one package at a time
}

type runState struct {
	last    results.Progress
	printed int    // tenths printed (plain mode)
	at      int64  // the Check's elapsed time at the last plain line
	drawn   string // a heartbeat's line drawn last (terminal)
}

// plainEvery is the longest a Check's time goes without a plain line.
const plainEvery = 10 * time.Second

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgressView(w io.Writer, path string) *progressView {
	return &progressView{w: w, tty: isTerminal(w), fol: results.Follower{Path: path}, runs: map[string]*runState{}}
}

// poll reads the new progress lines and draws them: on a terminal the
// latest line of each Check (and a newline when one is done), else plain
// lines.
func (v *progressView) poll() {
	v.mu.Lock()
	defer v.mu.Unlock()
	lines := v.fol.Next()
	for k, p := range lines {
		key := runKey(p)
		st := v.runs[key]
		if st == nil {
			st = &runState{}
			v.runs[key] = st
		}
		st.last = p
		line := v.line(st)
		if p.Heartbeat {
			v.heartbeat(st, line)
			continue
		}
		if v.tty {
			if p.Done || k == len(lines)-1 || runKey(lines[k+1]) != key {
				v.draw(line)
			}
			if p.Done {
				fmt.Fprintln(v.w)
				v.cur = ""
			}
			continue
		}
		tenth := 0
		if p.Planned > 0 {
			tenth = p.Iterations * 10 / p.Planned
		}
		if p.Done || tenth > st.printed || p.ElapsedNS-st.at >= int64(plainEvery) {
			st.printed, st.at = tenth, p.ElapsedNS
			v.pkgs.add(v.w, p.Package, line)
		}
		if p.Done && v.pkgs.doneSwitches {
			v.pkgs.idle(v.w, p.Package, v.allDone(p.Package))
		}
	}
}

// heartbeat shows a rewritten test's progress line, a sign of life of a
// long exploration: on a terminal once the test has run ttyAfter, and
// cleared when it ends; elsewhere a plain line every plainEvery of the
// test's time. Its verdict is the summary's, so its last line is not shown.
func (v *progressView) heartbeat(st *runState, line string) {
	p := st.last
	if v.tty {
		switch {
		case p.Done && v.cur != "" && v.cur == st.drawn:
			fmt.Fprintf(v.w, "\r%*s\r", len(v.cur), "")
			v.cur = ""
		case !p.Done && p.ElapsedNS >= int64(ttyAfter):
			v.draw(line)
			st.drawn = line
		}
		return
	}
	if !p.Done && p.ElapsedNS-st.at >= int64(plainEvery) {
		st.at = p.ElapsedNS
		v.pkgs.add(v.w, p.Package, line)
	}
	if p.Done {
		st.at = 0 // the next exploration of the test (after the corpus's replays) counts anew
		if v.pkgs.doneSwitches {
			v.pkgs.idle(v.w, p.Package, v.allDone(p.Package))
		}
	}
}

// ttyAfter is how long a rewritten test runs before a terminal shows its
// progress line.
const ttyAfter = time.Second

// draw replaces the terminal's current line with line.
func (v *progressView) draw(line string) {
	pad := max(len(v.cur)-len(line), 0)
	fmt.Fprintf(v.w, "\r%s%*s", line, pad, "")
	v.cur = line
}

// Write writes go test's output on a terminal: it clears the progress
// line, writes, and draws the line again below the output.
func (v *progressView) Write(b []byte) (int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	cur := v.cur
	if cur != "" {
		fmt.Fprintf(v.w, "\r%*s\r", len(cur), "")
		v.cur = ""
	}
	n, err := v.w.Write(b)
	if cur != "" && len(b) > 0 && b[len(b)-1] == '\n' {
		v.draw(cur)
	}
	return n, err
}

// line describes a Check's progress: iterations, failures, distinct
// partial orders, rate and, with a planned count, the time left.
func (v *progressView) line(st *runState) string {
	p := st.last
	name := testName(p.Package, p.Test)
	if p.Shard != "" {
		name += " [shard " + p.Shard + "]"
	}
	unit, rateUnit := "iteration", "it/s"
	if p.Heartbeat {
		unit, rateUnit = "schedule", "schedules/s"
	}
	its := plural.N(p.Iterations, unit)
	if p.Planned > 0 {
		its = fmt.Sprintf("%d/%s", p.Iterations, plural.N(p.Planned, unit))
	}
	s := fmt.Sprintf("%s: %s, %s", name, its, plural.N(p.Failures, "failure"))
	if !p.Heartbeat {
		s += ", " + plural.N(p.PartialOrders, "partial order")
	}
	el := time.Duration(p.ElapsedNS).Seconds()
	if el > 0 && p.Iterations > 0 {
		rate := float64(p.Iterations) / el
		s += fmt.Sprintf(", %.0f %s", rate, rateUnit)
		if p.Planned > p.Iterations && !p.Done {
			eta := time.Duration(float64(p.Planned-p.Iterations) / rate * float64(time.Second))
			s += fmt.Sprintf(", ETA %v", eta.Round(time.Second))
		}
	}
	switch {
	case p.Interrupted:
		s += ", interrupted"
	case p.Done:
		s += ", done"
	}
	return s
}

// runKey identifies a Check's run: package, test and shard.
func runKey(p results.Progress) string { return p.Package + " " + p.Test + " " + p.Shard }

// allDone reports whether every run of the package seen so far is done.
func (v *progressView) allDone(pkg string) bool {
	for _, st := range v.runs {
		if st.last.Package == pkg && !st.last.Done {
			return false
		}
	}
	return true
}
