package store

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
)

// Meta is a campaign's fixed settings, written once.
type Meta struct {
	Mode        string        // "server", "baseline" or "random"
	Constraints int           // per run, server mode
	Timeout     time.Duration // for an infeasible constraint
	Limit       time.Duration // a run's time limit
	Seed        uint64
	Window      int // streaming-transpositions window; 0 = whole trace
	Rounds      int // planner sweeps in server mode; 0 = no limit
	// SkipInfeasible: server mode passes over the constraints predicted
	// infeasible (coverage.Precedence). A campaign file without the line
	// (written before there was one) does not.
	SkipInfeasible bool
	Rules          []coverage.Rule
	Command        []string
}

const metaHeader = "morpheus-fuzz-campaign 1"

// Encode writes m as lines:
//
//	morpheus-fuzz-campaign 1
//	mode MODE
//	constraints N
//	timeout DURATION
//	limit DURATION
//	seed N
//	window N
//	rounds N
//	skip-infeasible 0|1
//	rule BEFORE<AFTER      (any number)
//	arg "GO-QUOTED"        (the command, one argument a line)
func (m *Meta) Encode(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, metaHeader)
	fmt.Fprintf(bw, "mode %s\nconstraints %d\ntimeout %s\nlimit %s\nseed %d\nwindow %d\nrounds %d\nskip-infeasible %d\n", m.Mode, m.Constraints, m.Timeout, m.Limit, m.Seed, m.Window, m.Rounds, b2i(m.SkipInfeasible))
	for _, r := range m.Rules {
		fmt.Fprintf(bw, "rule %s<%s\n", r.Before, r.After)
	}
	for _, a := range m.Command {
		fmt.Fprintf(bw, "arg %s\n", strconv.Quote(a))
	}
	return bw.Flush()
}

// DecodeMeta reads a campaign file; name is used in errors.
func DecodeMeta(r io.Reader, name string) (*Meta, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	m := &Meta{}
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s: line %d: %s", name, n, fmt.Sprintf(format, args...))
		}
		if n == 1 {
			if line != metaHeader {
				return nil, bad("expected %q", metaHeader)
			}
			continue
		}
		key, val, ok := strings.Cut(line, " ")
		if !ok {
			return nil, bad("expected KEY VALUE")
		}
		var err error
		switch key {
		case "mode":
			if val != "server" && val != "baseline" && val != "random" {
				return nil, bad("mode %q: expected server, baseline or random", clip(val))
			}
			m.Mode = val
		case "constraints":
			m.Constraints, err = atoi(val)
		case "timeout":
			m.Timeout, err = time.ParseDuration(val)
		case "limit":
			m.Limit, err = time.ParseDuration(val)
		case "seed":
			m.Seed, err = strconv.ParseUint(val, 10, 64)
		case "window":
			m.Window, err = atoi(val)
		case "rounds":
			m.Rounds, err = atoi(val)
		case "skip-infeasible":
			switch val {
			case "0", "1":
				m.SkipInfeasible = val == "1"
			default:
				err = fmt.Errorf("expected 0 or 1")
			}
		case "rule":
			var r coverage.Rule
			if r, err = coverage.ParseRule(val); err == nil {
				m.Rules = append(m.Rules, r)
			}
		case "arg":
			var a string
			if a, err = strconv.Unquote(val); err != nil {
				err = fmt.Errorf("expected a quoted argument")
			}
			m.Command = append(m.Command, a)
		default:
			return nil, bad("unknown key %q", clip(key))
		}
		if err != nil {
			return nil, bad("%s: %v", key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.Mode == "" || len(m.Command) == 0 {
		return nil, fmt.Errorf("%s: incomplete campaign file: expected a mode and a command", name)
	}
	return m, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
