package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/sct"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/rt"
)

// sctPlainOptions configures bench sct -plain.
type sctPlainOptions struct {
	sct.Options
	Dir   string // the plain module; default sct.PlainDir()
	Cache string // the rewrite driver's cache; default its own
	Log   io.Writer
}

// runSCTPlain runs the csync suite, then builds the plain module once
// through the rewrite driver and runs each case's test (or its fixed
// variant) with every strategy in counting mode, one test process per
// strategy, o.Workers processes at a time.
func runSCTPlain(o sctPlainOptions) (*sct.PlainReport, error) {
	cs, err := sct.Run(o.Options)
	if err != nil {
		return nil, err
	}
	dir := o.Dir
	if dir == "" {
		if dir, err = sct.PlainDir(); err != nil {
			return nil, err
		}
	}
	var names []string
	for _, c := range cs.Cases {
		buggy, fixed := sct.PlainTests(c.Name)
		if o.Fixed {
			buggy = fixed
		}
		names = append(names, regexp.QuoteMeta(buggy))
	}
	// The cases race on purpose: only their own checks may fail them.
	env := append(os.Environ(), "GOWORK=off", rt.EnvAllowRaces+"=true")
	cfg := driver.Config{Dir: dir, Patterns: []string{"."}, Cache: o.Cache, Env: env, Log: o.Log,
		Run: "^(" + strings.Join(names, "|") + ")$", Schedules: o.Trials, Seed: o.Seed, Jobs: 1, Count: true}
	ctx := context.Background()
	pkgs, err := driver.Prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 || pkgs[0].Err != nil || pkgs[0].Binary == "" {
		if len(pkgs) == 1 && pkgs[0].Err != nil {
			return nil, pkgs[0].Err
		}
		return nil, fmt.Errorf("bench sct -plain: building %s gave no test binary", dir)
	}
	runs := make([]*driver.PackageSummary, len(cs.Strategies))
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, s := range cs.Strategies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c := cfg
			c.Strategy = s
			runs[i] = driver.RunPrepared(ctx, c, pkgs[0])
		}()
	}
	wg.Wait()
	rep := &sct.PlainReport{CSync: cs}
	for _, sc := range cs.Cases {
		buggy, fixed := sct.PlainTests(sc.Name)
		if o.Fixed {
			buggy = fixed
		}
		pc := sct.PlainCase{Case: sc, Hits: map[string]int{}, Kind: map[string]string{},
			Location: map[string]string{}, Report: map[string]string{}}
		for i, s := range cs.Strategies {
			p := runs[i]
			if p.Err != nil {
				return nil, fmt.Errorf("%s with %s: %v\n%s", buggy, s, p.Err, p.Output)
			}
			var ts *driver.TestSummary
			for _, t := range p.Tests {
				if t.Name == buggy {
					ts = t
				}
			}
			if ts == nil || ts.Schedules != o.Trials || ts.Skipped {
				return nil, fmt.Errorf("%s with %s: the test did not run its %d schedules (%+v)", buggy, s, o.Trials, ts)
			}
			pc.Hits[s], pc.Kind[s], pc.Location[s], pc.Report[s] = ts.Hits, ts.Kind, ts.Location, ts.Failure
		}
		rep.Cases = append(rep.Cases, pc)
	}
	return rep, nil
}

// benchSCTPlain is bench sct -plain.
func benchSCTPlain(o sctPlainOptions, asJSON bool, start time.Time, stdout, stderr io.Writer) error {
	r, err := runSCTPlain(o)
	if err != nil {
		return err
	}
	if asJSON {
		err = sct.WritePlainJSON(stdout, r)
	} else {
		sct.WritePlainTable(stdout, r)
	}
	fmt.Fprintf(stderr, "bench sct -plain: %v\n", time.Since(start).Round(time.Millisecond))
	if err != nil || !o.Fixed {
		return err
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		for j, s := range r.CSync.Strategies {
			if c.Hits[s] > 0 || c.Report[s] != "" {
				fmt.Fprintf(stderr, "plain %s with %s:\n%s\n", c.Case.Name, s, c.Report[s])
				err = fmt.Errorf("a fixed variant failed: plain %s with %s, %d of %d schedules", c.Case.Name, s, c.Hits[s], r.CSync.Trials)
			}
			if h := r.CSync.Cells[i][j].Hits; h > 0 || r.CSync.First(i, j) != nil {
				err = fmt.Errorf("a fixed variant failed: %s with %s, %d of %d iterations", c.Case.Name, s, h, r.CSync.Trials)
			}
		}
	}
	return err
}
