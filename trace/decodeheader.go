package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// DecodeHeader reads the header of a trace written by Encode: the lines up
// to its first task, step, clock or end line, which it checks as Decode
// does, and no further. It is for readers that want only what a header says
// (the test, the options, the failure) of a trace that may be hundreds of
// megabytes: what it holds in memory is one line. A file that ends inside
// its header is an error, as for Decode.
func DecodeHeader(r io.Reader, name string) (*Header, error) {
	d := newDecoder(name)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), maxLine+2)
	for sc.Scan() {
		d.line++
		if err := d.decodeLine(sc.Text()); err != nil {
			return nil, d.at(err)
		}
		if d.section != inHeader {
			d.t.Header.Version = FormatVersion
			return &d.t.Header, nil
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			d.line++
			return nil, d.at(&FormatError{Field: "line", Msg: "expected at most " + strconv.Itoa(maxLine) + " bytes, got a longer line"})
		}
		return nil, fmt.Errorf("%s:%d: %w", d.name, d.line, err)
	}
	d.line++
	if err := d.endHeader(""); err != nil {
		return nil, d.at(err)
	}
	return nil, d.at(&FormatError{Field: "end", Msg: `expected "end" line, got end of file`})
}
