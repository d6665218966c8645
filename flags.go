package morpheus

import (
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/internal/procenv"
)

// setting is one -morpheus.* flag and its MORPHEUS_* environment variable,
// which have the same name: -morpheus.NAME and MORPHEUS_NAME. Each Option
// that a command line can express has one, named after it in lower case
// (Verbose: -morpheus.verbose, MORPHEUS_VERBOSE); the table of settings in
// README.md is checked against this one (settings_table_test.go).
type setting struct {
	name    string   // flag name without the "morpheus." prefix
	aliases []string // other flag names, kept for old command lines
	usage   string
	value   *string
	apply   func(c *config, s string) error
}

var settings = []*setting{
	{name: "iterations", usage: "iterations per Check (default 1000; 0 means unlimited: until a failure, -morpheus.duration or ^C)", apply: func(c *config, s string) error { return parseInt(s, &c.Iterations) }},
	{name: "duration", usage: "wall-clock budget per Check (e.g. 30s); iterations start until it is spent (default none)", apply: func(c *config, s string) error { return parseDuration(s, &c.Duration) }},
	{name: "strategy", usage: "exploration strategy: random, pos, pct:3, ... (default pos+ca)", apply: func(c *config, s string) error { c.Strategy, c.NewStrategy = s, nil; return nil }},
	{name: "seed", usage: "base seed: a number, or \"random\" (default: from the test's name)", apply: applySeed},
	{name: "replay", usage: "replay the trace in this file instead of exploring", apply: func(c *config, s string) error { c.Replay = s; return nil }},
	{name: "verbose", aliases: []string{"v"}, usage: "verbosity: 0 failures only, 1 a summary per Check, 2 whole traces (default 0)", apply: func(c *config, s string) error { return parseInt(s, &c.Verbose) }},
	{name: "maxsteps", usage: "step limit of an iteration (default 100000; it fails at ten times that)", apply: func(c *config, s string) error { return parseInt(s, &c.MaxSteps) }},
	{name: "clocklimit", usage: "virtual time limit of an iteration (default 10m)", apply: func(c *config, s string) error { return parseDuration(s, &c.ClockLimit) }},
	{name: "workers", usage: "iterations run in parallel (default GOMAXPROCS)", apply: func(c *config, s string) error { return parseInt(s, &c.Workers) }},
	{name: "catable", usage: "conflict-analysis table file, kept across runs (strategies with +ca)", apply: func(c *config, s string) error { c.CATable = s; return nil }},
	{name: "watchdog", usage: "wall-clock time a task may run without an op before it counts as blocked (default 5s); on Linux, time in which the machine starves the process does not count, up to 5× it", apply: func(c *config, s string) error { return parseDuration(s, &c.Watchdog) }},
	{name: "shrink", usage: "candidate schedules to shrink a failure with, one per 2,500 steps a candidate ran (default 200; 0: off)", apply: func(c *config, s string) error { c.ShrinkSet = true; return parseInt(s, &c.Shrink) }},
	{name: "shrinktime", usage: "wall-clock budget of shrinking a failure (default 10s)", apply: func(c *config, s string) error { return parseDuration(s, &c.ShrinkTime) }},
	{name: "shard", usage: "run part i of N of the iterations (i/N, from 0)", apply: func(c *config, s string) (err error) { c.Shard, err = explore.ParseShard(s); return err }},
	{name: "results", usage: "append each Check's result (JSON line) to this file, for morpheus merge", apply: func(c *config, s string) error { c.Results = s; return nil }},
	{name: "progress", usage: "append progress lines (JSON) to this file, for morpheus test", apply: func(c *config, s string) error { c.Progress = s; return nil }},
	{name: "coverage", usage: "true: count distinct partial orders; false: don't (default: only with -morpheus.results or -morpheus.progress)", apply: applyCoverage},
	{name: "earlytimers", usage: "times per iteration the nearest timer, if at most 1 ms ahead, may fire while other tasks can run (default 0; -1: a portfolio, by iteration 0, 2 or 24)", apply: func(c *config, s string) error { return parseInt(s, &c.Early) }},
	{name: "allowraces", usage: "true: data races on plain memory of rewritten code are no failure (default false)", apply: func(c *config, s string) error { return parseBool(s, &c.AllowRaces) }},
	{name: "epoch", usage: "instant the virtual clock of every iteration starts at, in RFC 3339 (default 2000-01-01T00:00:00Z)", apply: func(c *config, s string) error { return parseEpoch(s, &c.Epoch) }},
	{name: "allowleaks", usage: "true: goroutines still blocked after the test returned are no failure (default false)", apply: func(c *config, s string) error { return parseBool(s, &c.AllowLeaks) }},
}

// Flags are registered in test binaries only, so that importing morpheus
// never changes a program's command line.
func init() {
	if !testing.Testing() {
		return
	}
	for _, s := range settings {
		s.value = flag.String("morpheus."+s.name, "", s.usage+" (env "+envName(s.name)+")")
		for _, a := range s.aliases {
			flag.StringVar(s.value, "morpheus."+a, "", "alias of -morpheus."+s.name)
		}
	}
}

func envName(name string) string { return "MORPHEUS_" + strings.ToUpper(name) }

// flagSet reports which of s's flag names the command line set.
func (s *setting) flagSet(set map[string]bool) bool {
	if set["morpheus."+s.name] {
		return true
	}
	for _, a := range s.aliases {
		if set["morpheus."+a] {
			return true
		}
	}
	return false
}

// applyOverrides applies the environment, then the flags set on the command
// line, to c.
func applyOverrides(c *config) error {
	for _, s := range settings {
		// In a rewritten test binary rt has taken the variables out of the
		// environment, for the test's child processes (procenv).
		if v, ok := procenv.Lookup(envName(s.name)); ok && v != "" {
			if err := s.apply(c, v); err != nil {
				return fmt.Errorf("environment %s=%q: %v", envName(s.name), v, err)
			}
		}
	}
	set := map[string]bool{}
	if flag.Parsed() {
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	for _, s := range settings {
		if s.value != nil && s.flagSet(set) {
			if err := s.apply(c, *s.value); err != nil {
				return fmt.Errorf("flag -morpheus.%s=%q: %v", s.name, *s.value, err)
			}
		}
	}
	return nil
}

func parseInt(s string, p *int) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("expected a non-negative integer")
	}
	*p = n
	return nil
}

func parseBool(s string, p *bool) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("expected true or false")
	}
	*p = b
	return nil
}

func applyCoverage(c *config, s string) error {
	var on bool
	if err := parseBool(s, &on); err != nil {
		return err
	}
	Coverage(on)(c)
	return nil
}

// parseEpoch reads an RFC 3339 time (2030-06-01T12:00:00Z).
func parseEpoch(s string, p *time.Time) error {
	t, err := ParseEpoch(s)
	if err != nil {
		return err
	}
	*p = t
	return nil
}

func parseDuration(s string, p *time.Duration) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("expected a duration such as 30s or 5m")
	}
	*p = d
	return nil
}

func applySeed(c *config, s string) error {
	if s == "random" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		c.Seed = binary.LittleEndian.Uint64(b[:])
		return nil
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return fmt.Errorf("expected a number (decimal or 0x hex) or \"random\"")
	}
	c.Seed = n
	return nil
}
