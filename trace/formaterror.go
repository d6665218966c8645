package trace

import (
	"strconv"
	"unicode/utf8"
)

// FormatError reports malformed input to Decode. It names the file, the line
// and the field, and says what was expected and what was found, because a
// trace file is often edited or cut by hand and the fix should be obvious
// from the message alone.
type FormatError struct {
	File  string // the name given to Decode
	Line  int    // 1-based line number
	Field string // the field or line kind at fault, such as "task" or "end"
	Msg   string // "expected WHAT, got \"TEXT\""
}

func (e *FormatError) Error() string {
	return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Field + ": " + e.Msg
}

// maxGot bounds the text an error message quotes, so that a bad 1 MiB line
// gives a readable message.
const maxGot = 80

// expected returns a FormatError (without File and Line, which the decoder
// fills in) saying that field should have been what but was got.
func expected(field, what, got string) *FormatError {
	return &FormatError{Field: field, Msg: "expected " + what + ", got " + strconv.Quote(clip(got, maxGot))}
}

// clip cuts s to at most n bytes (n >= 3), on a rune boundary, and marks the
// cut with "...". The result is never longer than n, so that clipped text
// passes the same bound again unchanged.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("...")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
