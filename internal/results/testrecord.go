package results

// TestRecord is one test's outcome in "morpheus test -json"'s output and
// in its -results file: the contract between the command and the programs
// that read it (the benchmarks' goreal and modules suites).
type TestRecord struct {
	Package   string `json:"package"`
	Test      string `json:"test"`
	Schedules int    `json:"schedules"`
	Steps     int64  `json:"steps"`
	Skipped   bool   `json:"skipped,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Location  string `json:"location,omitempty"`
	Task      string `json:"task,omitempty"`
	Message   string `json:"message,omitempty"` // the failure's message (a t.Fatalf's)
	Failure   string `json:"failure,omitempty"` // the report
	// Schedule is the failing schedule's number (the lowest over the
	// processes and shards), -1 for a saved trace that still fails.
	Schedule *int     `json:"schedule,omitempty"`
	Trace    string   `json:"trace,omitempty"`
	Log      string   `json:"log,omitempty"` // the failing process's output, saved next to the trace
	Foreign  []string `json:"foreign,omitempty"`
	Error    string   `json:"error,omitempty"` // the package's build or run error
	Check    bool     `json:"check,omitempty"` // a test that calls morpheus.Check, run as it is; Schedules are its iterations
	Stale    []string `json:"stale,omitempty"` // a Check's corpus entries recorded on different code ("PATH: where the run left it")
	// Interrupted: a ^C (SIGINT, SIGTERM) stopped the test before its
	// schedules ran.
	Interrupted bool   `json:"interrupted,omitempty"`
	Real        string `json:"real,omitempty"` // the test ran once on the real network, not under control, because it reaches this
	// Stopped says why a rewritten test's exploration stopped: failure,
	// budget-time, budget-schedules, exhausted or interrupted.
	Stopped string `json:"stopped,omitempty"`
	// Seconds is the longest time one of its processes explored it.
	Seconds float64 `json:"seconds,omitempty"`
	// Passed: saved traces of a rewritten test whose replay passes (the
	// bug is fixed); Pruned: those -prune deleted (stale or passing).
	Passed []string `json:"passed,omitempty"`
	Pruned []string `json:"pruned,omitempty"`
	// Cached: the outcome an earlier run of the same test binary, settings,
	// inputs and saved traces recorded, shown again; nothing ran.
	Cached bool `json:"cached,omitempty"`
	// History, of a replay that diverged alone, says what it re-ran of the
	// recording process's history before replaying again (morpheus test
	// -replay of a trace found late in its process).
	History string `json:"history,omitempty"`
}
