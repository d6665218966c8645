package strategy

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// tableHeader is the first line of a saved table; the number is the version.
const tableHeader = "morpheus-ca-table 1"

// Save writes t as text, one line per signature after a header line:
//
//	<task key, 16 hex digits> <s|c> <location>
//
// where s means seen and c seen and conflicted. Lines are sorted, so equal
// tables give equal files.
//
// In memory a signature's location is a program counter, which means nothing
// to another process (another build, or the same binary loaded elsewhere).
// Save therefore writes each location as the text where returns for it, such
// as "file.go:42" (trace.Trace.Where, or the runtime's own mapping); Load maps
// the text back through a function of the reading process. Locations that
// share a text share a line (their states are merged). With where nil the
// number is written in decimal, which only the same process can use.
func (t *Table) Save(w io.Writer, where func(loc uint64) string) error {
	type line struct {
		task uint64
		loc  string
		st   sigState
	}
	lines := make([]line, 0, t.m.n)
	for _, sl := range t.m.slots {
		if sl.st == 0 {
			continue
		}
		s, st := sl.sig, sl.st
		loc := strconv.FormatUint(s.Loc, 10)
		if where != nil {
			loc = where(s.Loc)
		}
		if loc == "" || strings.ContainsAny(loc, "\r\n") {
			return fmt.Errorf("save conflict table: location %d has text %q, which a line cannot hold", s.Loc, loc)
		}
		lines = append(lines, line{s.Task, loc, st})
	}
	slices.SortFunc(lines, func(a, b line) int {
		return cmp.Or(cmp.Compare(a.task, b.task), strings.Compare(a.loc, b.loc))
	})
	bw := bufio.NewWriter(w)
	bw.WriteString(tableHeader + "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		for i++; i < len(lines) && lines[i].task == l.task && lines[i].loc == l.loc; i++ {
			l.st |= lines[i].st
		}
		mark := "s"
		if l.st&sigConflicted != 0 {
			mark = "c"
		}
		fmt.Fprintf(bw, "%016x %s %s\n", l.task, mark, l.loc)
	}
	return bw.Flush()
}

// Load reads a table written by Save and merges it into t. loc maps a
// location's text back to the location the reading process uses in Op.Sig
// (with loc nil, the text must be a decimal number). Errors name the line.
func (t *Table) Load(r io.Reader, loc func(text string) uint64) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		s := sc.Text()
		if n == 1 {
			if s != tableHeader {
				return fmt.Errorf("load conflict table: line 1: want %q, got %q", tableHeader, clipText(s))
			}
			continue
		}
		key, rest, ok1 := strings.Cut(s, " ")
		mark, text, ok2 := strings.Cut(rest, " ")
		if !ok1 || !ok2 || len(key) != 16 || text == "" || strings.ContainsRune(text, '\r') {
			return fmt.Errorf("load conflict table: line %d: want \"<16 hex digits> <s|c> <location>\", got %q", n, clipText(s))
		}
		task, err := strconv.ParseUint(key, 16, 64)
		if err != nil {
			return fmt.Errorf("load conflict table: line %d: task key %q is not 16 hex digits", n, key)
		}
		var st sigState
		switch mark {
		case "s":
			st = sigSeen
		case "c":
			st = sigSeen | sigConflicted
		default:
			return fmt.Errorf("load conflict table: line %d: state %q is neither s (seen) nor c (conflicted)", n, mark)
		}
		var l uint64
		if loc != nil {
			l = loc(text)
		} else if l, err = strconv.ParseUint(text, 10, 64); err != nil {
			return fmt.Errorf("load conflict table: line %d: location %q is not a number", n, clipText(text))
		}
		t.add(Sig{Task: task, Loc: l}, st)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("load conflict table: line %d: %w", n+1, err)
	}
	if n == 0 {
		return fmt.Errorf("load conflict table: line 1: empty input, want %q first", tableHeader)
	}
	return nil
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
