package trace

// Trace is the record of one iteration.
type Trace struct {
	Header Header
	Tasks  []Task
	Events []Event
	// Msgs holds the content of message i at index i, for rendering. A decoded
	// trace holds the content's text (a string) when the file recorded it.
	Msgs []any
	// Where maps an event's Loc to "file:line". Missing entries render as "?".
	Where map[uint64]string
}

// Header identifies the iteration a trace records and how it ended.
type Header struct {
	Version   int    // format version; Encode writes FormatVersion
	Test      string // the test's name (as go test -run matches it)
	Strategy  string // strategy that produced the schedule, as named on the command line
	Seed      uint64 // the iteration's own seed
	Iteration int    // iteration number within its run
	// Options are the settings that shaped the schedule beyond the
	// strategy and seed (the step limit, early timers, allowed leaks and
	// races, the clock's epoch, and how the test ran), by name: a replay applies them, so a
	// trace replays as it was found whatever flags the replay is given.
	// nil when there are none (and in traces written before them).
	Options map[string]string
	// Ran lists, in order, the runs the recording process made before
	// this schedule: of the tests that ran before it, and of this test
	// (its schedules before this one). nil when it ran first, and in
	// traces written before the field.
	Ran []Run
	// Outcome of the iteration: empty when it passed.
	Failure *Failure
}

// Failure is the failure an iteration ended with, as a trace keeps it.
type Failure struct {
	Kind    string // assertion, panic, deadlock, leak, step-limit, clock-limit, uncontrolled-blocking, nondeterminism, ...
	Message string
	Task    int32  // the task that failed, or -1
	Loc     string // "file:line" or ""
	Step    int    // the step at which the failure was detected
	// ClockLimit, if not 0, is the clock limit (ns) the run must be
	// replayed with instead of the test's own: shrinking cut a liveness
	// failure's idle repetition short by lowering it (see morpheus's
	// ShrinkStats.ClockLimit).
	ClockLimit int64
}

// Task describes one task of the iteration.
type Task struct {
	ID     int32
	Parent int32  // -1 for the main task and for runtime-owned tasks
	Name   string // human name such as "server@n1" or "timer#3"
	Key    uint64 // identity stable across iterations (creation path or user name)
}

// LocString returns the "file:line" of loc, or "?" if unknown.
func (t *Trace) LocString(loc uint64) string {
	if s, ok := t.Where[loc]; ok {
		return s
	}
	return "?"
}

// TaskName returns the name of task id, or "t<id>" if the table lacks it.
func (t *Trace) TaskName(id int32) string {
	if id >= 0 && int(id) < len(t.Tasks) && t.Tasks[id].Name != "" {
		return t.Tasks[id].Name
	}
	if id < 0 {
		return "runtime"
	}
	return "t" + itoa(int(id))
}

// Steps returns the number of scheduling steps in the trace.
func (t *Trace) Steps() int {
	n := 0
	for i := range t.Events {
		if t.Events[i].IsStep() {
			n++
		}
	}
	return n
}

// Times returns the virtual time, in ns, at every event of the trace: the
// value of the last clock event at or before it.
func (t *Trace) Times() []int64 {
	out := make([]int64, len(t.Events))
	now := int64(0)
	for i := range t.Events {
		if t.Events[i].Kind == KindClock {
			now = t.Events[i].Val
		}
		out[i] = now
	}
	return out
}

// OptionName reports whether s may name a Header option: one or more
// lower-case ASCII letters and digits, starting with a letter.
func OptionName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
