package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// Run is one run of a test that the process recording a trace made before
// the trace's own schedule (Header.Ran): an exploration of some of the
// test's schedules, the replay of a saved trace, or a test's one run on the
// real network and real time, not under control. Package-level state
// (caches, free lists, a library's global settings) outlives a schedule, so
// a schedule found late in a process may depend on what ran before it; a
// replay re-runs these runs, in order, when the trace does not replay
// alone.
type Run struct {
	Test string // the test's name, as go test -run matches it
	// Replay is the saved trace the run replayed, as the recording
	// process named it (relative to the package's directory); "" for an
	// exploration.
	Replay string
	// Real is why the test ran once on the real network, not under
	// control ("" for a run under control): what it did there (a codec's
	// type cache it filled) stays in the process as an exploration's does.
	Real string
	// Of an exploration: its base seed, its strategy as the process was
	// given it ("" for the default), the shard of the schedules the
	// process ran, Shard of Shards (Shards 0 or 1: all of them), and how
	// far it went: the schedules numbered below Schedules (those of the
	// shard) ran, then Shrink candidate schedules of shrinking.
	Seed          uint64
	Strategy      string
	Shard, Shards int
	Schedules     int
	Shrink        int
}

// checkRun returns an error if r cannot be written as a ran line that
// decodes back to it.
func checkRun(r *Run) error {
	if err := checkNames("ran test name", r.Test, "ran strategy", r.Strategy, "ran replay", r.Replay, "ran real", r.Real); err != nil {
		return err
	}
	switch {
	case r.Test == "":
		return fmt.Errorf("trace: cannot encode: a ran line without a test")
	case r.Schedules < 0 || r.Shrink < 0:
		return fmt.Errorf("trace: cannot encode: ran %s: schedules=%d shrink=%d", r.Test, r.Schedules, r.Shrink)
	case r.Shards > 1 && (r.Shard < 0 || r.Shard >= r.Shards), r.Shards <= 1 && r.Shard != 0:
		return fmt.Errorf("trace: cannot encode: ran %s in shard %d/%d", r.Test, r.Shard, r.Shards)
	case r.Replay != "" && r.Real != "":
		return fmt.Errorf("trace: cannot encode: ran %s replays a trace and runs on the real network", r.Test)
	case (r.Replay != "" || r.Real != "") && (r.Seed != 0 || r.Strategy != "" || r.Shards > 1 || r.Schedules != 0 || r.Shrink != 0):
		return fmt.Errorf("trace: cannot encode: ran %s replays a trace or runs on the real network, and explores", r.Test)
	}
	return nil
}

// appendRun appends r's ran line to b.
func appendRun(b []byte, r *Run) []byte {
	b = appendName(append(b, "ran "...), r.Test)
	if r.Replay != "" {
		return strconv.AppendQuote(append(b, " replay="...), r.Replay)
	}
	if r.Real != "" {
		return strconv.AppendQuote(append(b, " real="...), r.Real)
	}
	b = strconv.AppendUint(append(b, " seed="...), r.Seed, 10)
	if r.Strategy != "" {
		b = strconv.AppendQuote(append(b, " strategy="...), r.Strategy)
	}
	if r.Shards > 1 {
		b = strconv.AppendInt(append(b, " shard="...), int64(r.Shard), 10)
		b = strconv.AppendInt(append(b, '/'), int64(r.Shards), 10)
	}
	b = strconv.AppendInt(append(b, " schedules="...), int64(r.Schedules), 10)
	if r.Shrink > 0 {
		b = strconv.AppendInt(append(b, " shrink="...), int64(r.Shrink), 10)
	}
	return b
}

// ran decodes "ran TEST (replay=Q | real=Q | seed=N [strategy=Q]
// [shard=K/M] schedules=N [shrink=N])".
func (d *decoder) ran(fs []field, s string) *FormatError {
	const form = `"ran <test> seed=<number> schedules=<number> ...", "ran <test> replay=<quoted>" or "ran <test> real=<quoted>"`
	if len(fs) < 3 {
		return expected("ran", form, s)
	}
	test, err := nameField("ran", fs[1])
	if err != nil {
		return err
	}
	r := Run{Test: test}
	var seen keys
	for _, fl := range fs[2:] {
		if err = seen.add("ran", fl, "replay", "seed", "strategy", "shard", "schedules", "shrink", "real"); err != nil {
			return err
		}
		switch fl.key {
		case "replay":
			r.Replay, err = stringField(fl, maxName)
			if err == nil && r.Replay == "" {
				err = expected(fl.key, "a trace's path", fl.raw)
			}
		case "real":
			r.Real, err = stringField(fl, maxName)
			if err == nil && r.Real == "" {
				err = expected(fl.key, "what the test reached on the real network", fl.raw)
			}
		case "seed":
			r.Seed, err = uintField(fl.key, fl, 64)
		case "strategy":
			r.Strategy, err = stringField(fl, maxName)
		case "shard":
			r.Shard, r.Shards, err = shardField(fl)
		case "schedules", "shrink":
			var n int64
			n, err = intField(fl.key, fl, 32)
			if err == nil && n < 0 {
				err = expected(fl.key, "a number >= 0", fl.val)
			}
			if fl.key == "shrink" {
				r.Shrink = int(n)
			} else {
				r.Schedules = int(n)
			}
		}
		if err != nil {
			return err
		}
	}
	const replay, seed, schedules, real = 1 << 0, 1 << 1, 1 << 4, 1 << 6
	switch {
	case seen&replay != 0 && seen != replay:
		return expected("ran", "replay= alone, or an exploration's fields", s)
	case seen&real != 0 && seen != real:
		return expected("ran", "real= alone, or an exploration's fields", s)
	case seen&(replay|real) == 0 && (seen&seed == 0 || seen&schedules == 0):
		return expected("ran", "an exploration's seed= and schedules=", s)
	}
	d.t.Header.Ran = append(d.t.Header.Ran, r)
	return nil
}

// shardField decodes "K/M" with 0 <= K < M and M > 1.
func shardField(f field) (int, int, *FormatError) {
	k, m, ok := strings.Cut(f.val, "/")
	if !f.quoted && ok {
		i, err1 := strconv.ParseInt(k, 10, 32)
		n, err2 := strconv.ParseInt(m, 10, 32)
		if err1 == nil && err2 == nil && n > 1 && i >= 0 && i < n {
			return int(i), int(n), nil
		}
	}
	return 0, 0, expected("shard", "K/M with 0 <= K < M, M > 1", f.shown())
}
