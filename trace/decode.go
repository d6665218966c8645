package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// headers are the header line keywords in the order the format requires.
var headers = [...]string{"morpheus-trace", "test", "strategy", "seed", "iteration", "options", "ran", "failure"}

// headerForms shows the form of each header line, for error messages.
var headerForms = [len(headers)]string{
	`"morpheus-trace <version>"`, `"test <name>"`, `"strategy <name>"`,
	`"seed <number>"`, `"iteration <number>"`, `"options <name>=<value> ..."`,
	`"ran <test> <name>=<value> ..."`,
	`"failure <kind> task=<task> step=<step>"`,
}

// optional reports whether header line i may be absent.
func optional(i int) bool {
	return headers[i] == "strategy" || headers[i] == "options" || headers[i] == "ran" || headers[i] == "failure"
}

// Decoder sections, in file order.
const (
	inHeader = iota // before the first task, step, clock or end line
	inTasks         // task lines
	inEvents        // step and clock lines
	atEnd           // after the end line
)

// decoder reads one file. It is a state machine over lines: every line either
// advances the section or is checked against what the section allows, so an
// error can say what was expected at that very line.
type decoder struct {
	name    string
	line    int // number of the line being read
	t       *Trace
	section int
	next    int   // index in headers of the next header line allowed
	have    uint8 // bit i set: headers[i] was read

	taskLines []int // line of each task line, to report a bad parent late
	step      int   // number of the last step line
	locs      map[string]uint64
}

func newDecoder(name string) *decoder {
	return &decoder{name: name, t: &Trace{}}
}

func (d *decoder) decode(r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	// Room for a maximal line and its "\r\n"; decodeLine checks the bound
	// itself, since the scanner accepts a last line without a newline that
	// fills the whole buffer.
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+2)
	for sc.Scan() {
		d.line++
		if err := d.decodeLine(sc.Text()); err != nil {
			return nil, d.at(err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			d.line++
			return nil, d.at(&FormatError{Field: "line", Msg: "expected at most " + strconv.Itoa(maxLine) + " bytes, got a longer line"})
		}
		return nil, fmt.Errorf("%s:%d: %w", d.name, d.line, err)
	}
	if d.section != atEnd {
		d.line++
		if err := d.endHeader(""); err != nil {
			return nil, d.at(err)
		}
		return nil, d.at(&FormatError{Field: "end", Msg: `expected "end" line, got end of file`})
	}
	d.t.Header.Version = FormatVersion
	return d.t, nil
}

// at completes err with the file name and the current line.
func (d *decoder) at(err *FormatError) error {
	err.File, err.Line = d.name, d.line
	return err
}

func (d *decoder) decodeLine(s string) *FormatError {
	if len(s) > maxLine {
		return &FormatError{Field: "line", Msg: "expected at most " + strconv.Itoa(maxLine) + " bytes, got a longer line"}
	}
	if !utf8.ValidString(s) {
		return expected("line", "UTF-8 text", s)
	}
	trimmed := strings.TrimLeft(s, " \t")
	if trimmed == "" || trimmed[0] == '#' {
		return nil
	}
	if d.section == atEnd {
		return expected("end", "nothing after the end line", s)
	}
	fs, err := splitFields(s)
	if err != nil {
		return err
	}
	kw := fs[0]
	if kw.key != "" || kw.quoted {
		return expected("line", "a line keyword", kw.raw)
	}
	switch kw.val {
	case "task":
		if err := d.endHeader(s); err != nil {
			return err
		}
		if d.section > inTasks {
			return expected("task", "task lines before the first step", s)
		}
		d.section = inTasks
		return d.task(fs, s)
	case "s", "clock", "end":
		if err := d.endTasks(s); err != nil {
			return err
		}
		switch kw.val {
		case "s":
			return d.stepLine(fs, s)
		case "clock":
			return d.clock(fs, s)
		}
		if len(fs) != 1 {
			return expected("end", `"end" alone`, s)
		}
		d.section = atEnd
		return nil
	}
	for i, h := range headers {
		if kw.val == h {
			return d.header(i, fs, s)
		}
	}
	if err := d.requireHeaders(1, s); err != nil {
		return err
	}
	return expected("line", "a header, task, s, clock or end line", s)
}

// endHeader checks that no required header line is missing before line s,
// which ends the header ("" for the end of the file).
func (d *decoder) endHeader(s string) *FormatError {
	if d.section != inHeader {
		return nil
	}
	return d.requireHeaders(len(headers), s)
}

// requireHeaders checks that the required header lines before headers[i] have
// all been read, s being the line read instead ("" for the end of the file).
func (d *decoder) requireHeaders(i int, s string) *FormatError {
	for j := d.next; j < i; j++ {
		if optional(j) {
			continue
		}
		field, what := headers[j], headerForms[j]
		if j == 0 {
			field = "header"
		}
		if s == "" {
			return &FormatError{Field: field, Msg: "expected " + what + ", got end of file"}
		}
		return expected(field, what, s)
	}
	return nil
}

// endTasks moves to the events section, checking first the parents, which
// could not be checked before the task table was complete. (The failure's
// task is not checked: a failure report is text for people, and a wrong
// number in it does not stop a replay.)
func (d *decoder) endTasks(s string) *FormatError {
	if d.section == inEvents {
		return nil
	}
	if err := d.endHeader(s); err != nil {
		return err
	}
	d.section = inEvents
	t := d.t
	n := int64(len(t.Tasks))
	for i, tk := range t.Tasks {
		if int64(tk.Parent) >= n {
			d.line = d.taskLines[i]
			return expected("parent", "a task number -1.."+strconv.FormatInt(n-1, 10), strconv.Itoa(int(tk.Parent)))
		}
	}
	return nil
}
