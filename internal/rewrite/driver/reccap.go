package driver

import (
	"bytes"
	"fmt"
	"io"
)

// A test process's record of a test (rt.Result, a JSON line in its
// rt.EnvOut file) can be as large as its output: a failure's report holds
// the failing schedule's log, every line a test logged in it (a cluster's
// heartbeats over millions of steps: hundreds of megabytes). The driver
// reads the records as a stream (capLines) in which each JSON string
// longer than the summary keeps is cut to its first keptHead and last
// keptTail bytes, with a line that says how much is left out between them,
// so a record never costs more than that. A cut falls between two
// characters, never inside an escape sequence or a UTF-8 sequence. The
// whole report stays where the test printed it (its process's output,
// procout.go) and the trace replays the schedule.

// capLines reads JSON lines from r, each string cut as above, and calls
// line with each complete line (without its newline; the slice is reused).
// It returns how many bytes of r the complete lines took: a line still
// being written is left for the next read.
func capLines(r io.Reader, line func([]byte)) (int64, error) {
	buf := make([]byte, 64<<10)
	var c jsonCap
	var done, n int64
	for {
		m, err := r.Read(buf)
		p := buf[:m]
		for i := 0; i < len(p); {
			switch {
			case !c.inString:
				j := bytes.IndexAny(p[i:], "\"\n")
				if j < 0 {
					c.out = append(c.out, p[i:]...)
					i = len(p)
					continue
				}
				c.out = append(c.out, p[i:i+j]...)
				i += j
				if p[i] == '\n' {
					line(c.out)
					c.out = c.out[:0]
					done = n + int64(i) + 1
					i++
					continue
				}
				c.byte(p[i]) // the string begins
				i++
			case c.tailing && c.esc == 0:
				// The bulk of a long string: up to its end or an escape.
				j := bytes.IndexAny(p[i:], "\"\\")
				if j < 0 {
					c.push(p[i:])
					i = len(p)
					continue
				}
				c.push(p[i : i+j])
				i += j
				c.byte(p[i])
				i++
			default:
				c.byte(p[i])
				i++
			}
		}
		n += int64(m)
		if err == io.EOF {
			return done, nil
		}
		if err != nil {
			return done, err
		}
	}
}

// jsonCap cuts the long strings of one JSON line as its bytes come.
type jsonCap struct {
	out      []byte
	inString bool
	esc      int // bytes left in the escape sequence under way (\n: 1, \u0041: 5)
	head     int // bytes of the current string written to out
	tailing  bool
	tail     []byte // a ring of keptTail bytes once full
	at       int    // the ring's oldest byte
	total    int64  // bytes that went to the tail
}

// byte takes the next byte of the line.
func (c *jsonCap) byte(b byte) {
	if !c.inString {
		c.out = append(c.out, b)
		if b == '"' {
			c.inString, c.esc, c.head, c.tailing, c.total = true, 0, 0, false, 0
			c.tail, c.at = c.tail[:0], 0
		}
		return
	}
	start := c.esc == 0 && b&0xC0 != 0x80 // a character begins here
	if c.esc == 0 && b == '"' {
		c.endString()
		c.out = append(c.out, b)
		c.inString = false
		return
	}
	switch {
	case c.esc == 0 && b == '\\':
		c.esc = 1
	case c.esc == 1 && b == 'u':
		c.esc = 4
	case c.esc > 0:
		c.esc--
	}
	if !c.tailing && (c.head < keptHead || !start) {
		c.out = append(c.out, b)
		c.head++
		return
	}
	c.tailing = true
	c.push([]byte{b})
}

// push adds bytes to the tail ring.
func (c *jsonCap) push(p []byte) {
	c.total += int64(len(p))
	if len(p) >= keptTail {
		c.tail, c.at = append(c.tail[:0], p[len(p)-keptTail:]...), 0
		return
	}
	if room := keptTail - len(c.tail); room > 0 {
		k := min(room, len(p))
		c.tail = append(c.tail, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(c.tail[c.at:], p)
		c.at = (c.at + k) % keptTail
		p = p[k:]
	}
}

// endString writes the current string's tail: all of it, or, if bytes
// were left out, a note and the tail from its first character that
// surely begins one (safeStart).
func (c *jsonCap) endString() {
	if !c.tailing {
		return
	}
	k := len(c.tail)
	at := func(i int) byte { return c.tail[(c.at+i)%k] }
	skip := 0
	if c.total > int64(k) {
		skip = k
		for i := 1; i < k; i++ {
			if safeStart(at(i-1), at(i)) {
				skip = i
				break
			}
		}
		left := c.total - int64(k) + int64(skip)
		c.out = fmt.Appendf(c.out, `\n[morpheus: %d bytes of this text left out]\n`, left)
	}
	for i := skip; i < k; i++ {
		c.out = append(c.out, at(i))
	}
}

// safeStart reports whether b, after prev, surely begins a character of a
// JSON string's text whatever came before prev: it is none of a UTF-8
// sequence's continuation bytes, of an escape's (a backslash, u, a hex
// digit), and prev is no backslash (which may begin an escape).
func safeStart(prev, b byte) bool {
	switch {
	case prev == '\\', b == '\\', b == '"', b == 'u', b&0xC0 == 0x80:
		return false
	case '0' <= b && b <= '9', 'a' <= b && b <= 'f', 'A' <= b && b <= 'F':
		return false
	}
	return true
}
