package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// progressView draws the progress of the Checks of a go test run from
// their progress file. On a terminal it keeps one line up to date with
// carriage returns; elsewhere it prints a plain line every tenth of a
// Check's planned iterations and when it ends. Rates come from the wall
// time each Check reports; it never reaches the tests' decisions.
type progressView struct {
	w     io.Writer
	tty   bool
	fol   results.Follower
	runs  map[string]*runState // by test and shard
	width int                  // length of the line drawn last (terminal)
}

type runState struct {
	last    results.Progress
	printed int // tenths printed (plain mode)
}

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

// poll reads the new progress lines and draws them.
func (v *progressView) poll() {
	for _, p := range v.fol.Next() {
		key := p.Test + " " + p.Shard
		st := v.runs[key]
		if st == nil {
			st = &runState{}
			v.runs[key] = st
		}
		st.last = p
		line := v.line(st)
		if v.tty {
			pad := max(v.width-len(line), 0)
			fmt.Fprintf(v.w, "\r%s%*s", line, pad, "")
			v.width = len(line)
			if p.Done {
				fmt.Fprintln(v.w)
				v.width = 0
			}
			continue
		}
		tenth := 0
		if p.Planned > 0 {
			tenth = p.Iterations * 10 / p.Planned
		}
		if p.Done || tenth > st.printed {
			st.printed = tenth
			fmt.Fprintln(v.w, line)
		}
	}
}

// line describes a Check's progress: iterations, failures, distinct
// partial orders, rate and, with a planned count, the time left.
func (v *progressView) line(st *runState) string {
	p := st.last
	name := p.Test
	if p.Shard != "" {
		name += " [shard " + p.Shard + "]"
	}
	its := fmt.Sprint(p.Iterations)
	if p.Planned > 0 {
		its += fmt.Sprintf("/%d", p.Planned)
	}
	s := fmt.Sprintf("%s: %s iterations, %d failures, %d partial orders", name, its, p.Failures, p.PartialOrders)
	el := time.Duration(p.ElapsedNS).Seconds()
	if el > 0 && p.Iterations > 0 {
		rate := float64(p.Iterations) / el
		s += fmt.Sprintf(", %.0f it/s", rate)
		if p.Planned > p.Iterations && !p.Done {
			eta := time.Duration(float64(p.Planned-p.Iterations) / rate * float64(time.Second))
			s += fmt.Sprintf(", ETA %v", eta.Round(time.Second))
		}
	}
	if p.Done {
		s += ", done"
	}
	return s
}
