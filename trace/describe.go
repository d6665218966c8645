package trace

// Detail describes what step e of t did beyond its kind, as Render shows it:
// the other task and the message of a send or receive ("→ server@n1
// main.Req{N:3}"), "timeout", the value chosen, the node crashed, what a
// fault decision did ("drop → server@n1 main.Req{N:3}": the message is named
// when e points into t.Events). It is "" when there is nothing to add. Non-printable characters are escaped, so the
// text fits on one line.
func (t *Trace) Detail(e *Event) string { return printable(t.detail(e)) }

// FormatTime formats a virtual time in nanoseconds as Render shows it:
// seconds with milliseconds, such as "1.500s".
func FormatTime(ns int64) string { return fmtTime(ns) }
