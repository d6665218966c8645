package trace

import (
	"io"
	"strconv"
	"strings"
)

// FormatVersion is the version of the file format Encode writes and the only
// one Decode reads. A change that an older Decode would misread (a new line
// type, a field whose absence means something else) needs a new version;
// adding an op kind or a flag does not, since an older Decode rejects the
// unknown kind or flag by name rather than misreading it.
const FormatVersion = 1

// Limits that bound Decode's memory, so that a corrupt or hostile file cannot
// make it allocate without limit.
const (
	// maxLine bounds a line, the unit Decode buffers.
	maxLine = 1 << 20
	// maxMsgID bounds a message id that carries content. Decode stores the
	// content at Msgs[id], so the id sizes a slice: this is the one
	// allocation not proportional to the input, up to 16M entries (256 MiB)
	// for a one-line send.
	maxMsgID = 1 << 24
	// maxText bounds free text (message contents, the failure message): Encode
	// cuts longer text and Decode rejects it. Quoting can make text 4 times
	// longer, and a line holds at most one free text and two names, so these
	// bounds keep every line under maxLine. The text is for people, so cutting
	// the end of a huge value loses little, while a line Decode rejects would
	// lose the whole trace.
	maxText = 200 << 10
	// maxName bounds names and locations, which Encode cannot cut since they
	// identify things; a longer one is a bug in whatever made it.
	maxName = 16 << 10
)

// Encode writes t in the text format described in the package documentation.
//
// It checks first that t is consistent (task IDs in order, events naming
// existing tasks and known kinds) and returns an error without writing
// anything otherwise: a file Decode would reject is worse than no file, since
// whoever saves a failing trace means to replay it later.
//
// Encode writes what replay and rendering need, not every bit of t:
// locations as text (t.Where[e.Loc]; a Loc without an entry is dropped),
// message contents as text, and of a clock event only its time.
func Encode(w io.Writer, t *Trace) error {
	if err := checkEncodable(t); err != nil {
		return err
	}
	return newEncoder(w, t).encode()
}

// Decode reads a trace written by Encode. name is the file name that error
// messages start with.
//
// Malformed input returns a *FormatError naming the line and the field, never
// a partial trace or a panic. A read error from r is returned wrapped, with
// the line it occurred after. The decoded trace numbers its locations 1, 2, 3
// in order of first appearance (Where maps them back to "file:line") and
// keeps message contents as strings.
func Decode(r io.Reader, name string) (*Trace, error) {
	return newDecoder(name).decode(r)
}

// flagNames are the names of the Flag bits in the flags= field, in bit order,
// which is also the order Encode writes them in.
var flagNames = [...]string{"read", "timeout", "dropped", "fault", "duplicated", "delayed"}

// knownFlags is the set of Flag bits the format can express.
const knownFlags = FlagRead | FlagTimeout | FlagDropped | FlagFault | FlagDuplicated | FlagDelayed

// flagList is what the flags= field expects, for errors.
const flagList = "read, timeout, dropped, fault, duplicated or delayed"

// valAlwaysWritten reports whether an event of kind k writes its val field
// even when it is 0: for these kinds Val is a message id, a chosen value or a
// node index, for which 0 is a value like any other rather than "nothing".
func valAlwaysWritten(k Kind) bool {
	switch k {
	case KindSend, KindTimer, KindRecv, KindChoose, KindCrash, KindRestart, KindNode:
		return true
	}
	return false
}

// isBare reports whether s can be written without quotes where the format
// takes a name (the test, the strategy, the failure kind): it is one
// space-free field that reads back as itself. Encode quotes anything else, so
// that the format stays readable for the usual names and exact for the rest.
func isBare(s string) bool {
	if s == "" || strings.Contains(s, " ") {
		return false
	}
	q := strconv.Quote(s)
	return len(q) == len(s)+2
}

// appendName appends s bare if it can be, else quoted (see isBare).
func appendName(b []byte, s string) []byte {
	if isBare(s) {
		return append(b, s...)
	}
	return strconv.AppendQuote(b, s)
}

// carriesMsg reports whether event e refers to a message whose content the
// format keeps: a send, a timer firing (which sends), or a receive that got a
// message. Receives carry the text too, because some messages (Down,
// ExitSignal) come from the runtime and have no send step.
func carriesMsg(e *Event) bool {
	switch e.Kind {
	case KindSend, KindTimer:
		return true
	case KindRecv:
		return e.Flag&FlagTimeout == 0
	}
	return false
}
