package trace

import (
	"strconv"
	"strings"
)

// field is one field of a line: a bare word, a Go-quoted string, or
// key=value where the value is either. Fields are separated by spaces or
// tabs; a quoted string may contain them.
type field struct {
	key    string // "" for a field without key=
	val    string // the value, unquoted if it was quoted
	quoted bool   // the value was a quoted string
	raw    string // the field as written, for error messages
}

// splitFields splits a line into fields. It fails only on a quoted string
// that does not end or does not unquote; what the fields mean is for the
// caller to check.
func splitFields(s string) ([]field, *FormatError) {
	var fs []field
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return fs, nil
		}
		start := i
		var f field
		for i < len(s) && !isSpace(s[i]) && s[i] != '=' && s[i] != '"' {
			i++
		}
		if i < len(s) && s[i] == '=' && i > start {
			f.key = s[start:i]
			i++
		} else {
			i = start // no key: the whole field is the value
		}
		vstart := i
		if i < len(s) && s[i] == '"' {
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			name := "line"
			if knownKeys[f.key] {
				name = f.key
			}
			if j >= len(s) {
				return nil, expected(name, "a closing quote", s[start:])
			}
			j++
			if j < len(s) && !isSpace(s[j]) {
				return nil, expected(name, "a space after the closing quote", s[start:])
			}
			v, err := strconv.Unquote(s[i:j])
			if err != nil {
				return nil, expected(name, "a Go-quoted string", s[i:j])
			}
			f.val, f.quoted = v, true
			i = j
		} else {
			for i < len(s) && !isSpace(s[i]) {
				i++
			}
			f.val = s[vstart:i]
		}
		f.raw = s[start:i]
		fs = append(fs, f)
	}
}

// shown is the value of f as an error message should quote it: as written if
// it was quoted, so that the quotes show.
func (f field) shown() string {
	if f.quoted {
		return f.raw
	}
	return f.val
}

// knownKeys are the keys of all line kinds. An error in a field with one of
// them names the key; any other text is not a field name worth echoing.
var knownKeys = map[string]bool{
	"obj": true, "res": true, "val": true, "flags": true, "at": true, "msg": true,
	"parent": true, "key": true, "name": true, "task": true, "step": true,
	"replay": true, "seed": true, "strategy": true, "shard": true, "schedules": true, "shrink": true,
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// keys records the keys seen on a line, to reject unknown and repeated ones.
type keys uint32

// add records f's key, which must be one of allowed; line names the line
// kind for an error about a field that is not key=value.
func (k *keys) add(line string, f field, allowed ...string) *FormatError {
	if f.key == "" {
		return expected(line, "key=value", f.raw)
	}
	for i, a := range allowed {
		if a == f.key {
			if *k&(1<<i) != 0 {
				return expected(f.key, "one "+f.key+"= field", f.raw)
			}
			*k |= 1 << i
			return nil
		}
	}
	return expected(line, "one of the keys "+strings.Join(allowed, ", "), f.raw)
}

// intField decodes f as a decimal integer of the given bit size.
func intField(name string, f field, bits int) (int64, *FormatError) {
	if !f.quoted {
		if v, err := strconv.ParseInt(f.val, 10, bits); err == nil {
			return v, nil
		}
	}
	return 0, expected(name, "a "+strconv.Itoa(bits)+"-bit integer", f.shown())
}

// uintField decodes f as a decimal unsigned integer of the given bit size.
func uintField(name string, f field, bits int) (uint64, *FormatError) {
	if !f.quoted {
		if v, err := strconv.ParseUint(f.val, 10, bits); err == nil {
			return v, nil
		}
	}
	return 0, expected(name, "a "+strconv.Itoa(bits)+"-bit unsigned integer", f.shown())
}

// stringField decodes f as a quoted string of at most max bytes.
func stringField(f field, max int) (string, *FormatError) {
	if !f.quoted {
		return "", expected(f.key, "a quoted string", f.raw)
	}
	if len(f.val) > max {
		return "", expected(f.key, "at most "+strconv.Itoa(max)+" bytes", f.raw)
	}
	return f.val, nil
}
