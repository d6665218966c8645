package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/morpheus-go/morpheus/trace"
)

// Version is the version of the record format; Read rejects others.
const Version = 1

// Record is the result of one Check: one line of a result file.
type Record struct {
	Version    int    `json:"version"`
	Test       string `json:"test"`
	Package    string `json:"package,omitempty"` // the test's package: import path, or directory outside a module
	Dir        string `json:"dir,omitempty"`     // the test's directory, which files of the first version named instead of Package
	Strategy   string `json:"strategy"`
	Seed       uint64 `json:"seed"`                // the base seed
	Shard      string `json:"shard,omitempty"`     // "i/N", "" for the whole run
	Shards     int    `json:"shards,omitempty"`    // of a merged record: how many shard records it merges
	Replay     string `json:"replay,omitempty"`    // the trace a replay ran, "" for an exploration
	Planned    int    `json:"planned"`             // iterations asked for (0: a time budget)
	Iterations int    `json:"iterations"`          // iterations run
	Steps      int64  `json:"steps"`               // steps over all iterations
	ElapsedNS  int64  `json:"elapsed_ns"`          // wall time
	Failures   int    `json:"failures"`            // failing iterations
	Exhausted  bool   `json:"exhausted,omitempty"` // a systematic search explored every schedule
	// Interrupted: a SIGINT or SIGTERM stopped the run before its planned
	// iterations (or time budget); Iterations counts those that completed.
	Interrupted bool `json:"interrupted,omitempty"`
	// Coverage counts the partial orders of the iterations below Limit.
	Limit         int      `json:"limit"`
	PartialOrders int      `json:"partial_orders"`
	Orders        []Order  `json:"orders,omitempty"`   // sorted by PO
	CATable       string   `json:"ca_table,omitempty"` // conflict analysis's table, its file format
	Failure       *Failure `json:"failure,omitempty"`
	// Stale lists the corpus entries the Check replayed that its code no
	// longer follows (recorded on different code, typically before a fix),
	// one "PATH: where the run left it" each; not failures.
	Stale []string `json:"stale,omitempty"`
}

// Order is a partial order seen and the lowest iteration that ran it.
type Order struct {
	PO    string `json:"po"` // hb.PartialOrder, 16 hex digits
	First int    `json:"first"`
}

// Failure is the lowest failing iteration of a run.
type Failure struct {
	Kind          string `json:"kind"`
	Message       string `json:"message"`
	Task          string `json:"task,omitempty"`
	Location      string `json:"location,omitempty"`
	Iteration     int    `json:"iteration"`
	Seed          uint64 `json:"seed"` // the iteration's own seed
	Steps         int    `json:"steps"`
	OriginalSteps int    `json:"original_steps,omitempty"` // before shrinking; 0 if not shrunk
	// ShrinkTimedOut: shrinking was stopped by its time budget, so the
	// shrunk schedule depends on the machine's speed.
	ShrinkTimedOut bool   `json:"shrink_timed_out,omitempty"`
	Path           string `json:"path,omitempty"`  // where the trace was saved
	Trace          string `json:"trace,omitempty"` // the trace, in its file format
}

// DecodeTrace decodes the failure's trace.
func (f *Failure) DecodeTrace() (*trace.Trace, error) {
	return trace.Decode(strings.NewReader(f.Trace), "trace of "+f.Kind+" failure")
}

// OrderMap returns r's partial orders as a map to their first iterations.
func (r *Record) OrderMap() map[uint64]int {
	m := make(map[uint64]int, len(r.Orders))
	for _, o := range r.Orders {
		po, _ := strconv.ParseUint(o.PO, 16, 64) // checked by Read
		m[po] = o.First
	}
	return m
}

// SetOrders sets r.Orders and r.PartialOrders from a map of partial orders
// to their first iterations.
func (r *Record) SetOrders(m map[uint64]int) {
	r.Orders = r.Orders[:0]
	for po, i := range m {
		r.Orders = append(r.Orders, Order{PO: fmt.Sprintf("%016x", po), First: i})
	}
	sortOrders(r.Orders)
	r.PartialOrders = len(r.Orders)
}

var appendMu sync.Mutex

// Append adds v to the file at path as one JSON line, written with a single
// write in append mode, so that processes sharing the file do not interleave
// their lines.
func Append(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	appendMu.Lock()
	defer appendMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Write writes records to w, one JSON line each.
func Write(w io.Writer, recs []*Record) error {
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// ReadFile reads the records of a result file.
func ReadFile(path string) ([]*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads result records, one JSON line each; blank lines are skipped.
// Errors name the file (name), the line and what was expected.
func Read(rd io.Reader, name string) ([]*Record, error) {
	br := bufio.NewReader(rd)
	var out []*Record
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			r, perr := parseRecord(line)
			if perr != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, perr)
			}
			out = append(out, r)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
	}
}

func parseRecord(line []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("column %d: expected a JSON result record: %v", se.Offset, err)
		}
		return nil, fmt.Errorf("expected a JSON result record: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("expected one JSON record per line, found more")
	}
	return &r, r.validate()
}

func (r *Record) validate() error {
	if r.Version != Version {
		return fmt.Errorf("version %d: expected %d", r.Version, Version)
	}
	if r.Test == "" {
		return fmt.Errorf("expected a test name")
	}
	if r.Shard != "" {
		if _, _, err := ParseShard(r.Shard); err != nil {
			return fmt.Errorf("shard %q: %v", r.Shard, err)
		}
	}
	if r.Planned < 0 || r.Iterations < 0 || r.Steps < 0 || r.Failures < 0 || r.Limit < 0 || r.Shards < 0 {
		return fmt.Errorf("expected non-negative counts")
	}
	for k, o := range r.Orders {
		if _, err := strconv.ParseUint(o.PO, 16, 64); err != nil || len(o.PO) != 16 {
			return fmt.Errorf("orders[%d]: po %q: expected 16 hex digits", k, o.PO)
		}
		if o.First < 0 {
			return fmt.Errorf("orders[%d]: expected a non-negative first iteration", k)
		}
		if k > 0 && r.Orders[k-1].PO >= o.PO {
			return fmt.Errorf("orders[%d]: expected orders sorted by po, without repeats", k)
		}
	}
	if r.PartialOrders != len(r.Orders) {
		return fmt.Errorf("partial_orders %d: expected the number of orders, %d", r.PartialOrders, len(r.Orders))
	}
	if f := r.Failure; f != nil {
		if f.Kind == "" {
			return fmt.Errorf("failure: expected a kind")
		}
		if f.Iteration < 0 || f.Steps < 0 || f.OriginalSteps < 0 {
			return fmt.Errorf("failure: expected non-negative counts")
		}
		if f.Trace != "" {
			if _, err := f.DecodeTrace(); err != nil {
				return fmt.Errorf("failure: %v", err)
			}
		}
	}
	return nil
}

// ParseShard parses "i/N" (0 <= i < N).
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("expected i/N with 0 <= i < N, such as 0/4")
	}
	return i, n, nil
}
