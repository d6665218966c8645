package main

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"time"
)

// Config is a worker's configuration.
type Config struct{ Multiplier int }

// loadConfig returns the configuration (a constant here; think of a file).
func loadConfig() *Config { return &Config{Multiplier: 7} }

// work runs worker n: args are N ADDRESS [-fixed].
func work(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("worker: expected N ADDRESS [-fixed]")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("worker: %q is not a number", args[0])
	}
	fixed := len(args) > 2 && args[2] == "-fixed"

	var cfg atomic.Pointer[Config]
	loaded := make(chan struct{})
	go func() {
		c := loadConfig()
		hit("config-loaded")
		cfg.Store(c)
		close(loaded)
	}()

	// Staggered start, so that the workers do not all register at once:
	// natural runs register them in order w1, w2, w3.
	time.Sleep(time.Duration(n) * StaggerStep)
	conn, err := net.Dial("tcp", args[1])
	if err != nil {
		return err
	}
	defer conn.Close()
	hit("register")
	if _, err := fmt.Fprintf(conn, "register %d\n", n); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	var jobN int
	line, err := r.ReadString('\n')
	if _, e := fmt.Sscanf(line, "start %d\n", &jobN); err != nil || e != nil {
		return fmt.Errorf("worker %d: bad start %q: %v", n, line, err)
	}
	if fixed {
		<-loaded
	}
	// The bug: without -fixed, nothing orders this read after the loading
	// goroutine's store.
	c := cfg.Load()
	if c == nil {
		c = &Config{} // "defaults"
	}
	// The configuration is an input of the start event: the tracepoint
	// comes after it is read.
	hit("start")
	// The job takes longer for later workers.
	time.Sleep(time.Duration(n) * JobStep)
	result := jobN * c.Multiplier
	hit("result")
	_, err = fmt.Fprintf(conn, "result %d\n", result)
	return err
}

// Timing of natural runs: worker n registers n·StaggerStep after it starts,
// and its job takes n·JobStep. These make the natural orders of registration
// and of results almost fixed (as timing does in real systems), though
// nothing in the protocol orders them: only forced orders show the rest.
const (
	StaggerStep = 40 * time.Millisecond
	JobStep     = 40 * time.Millisecond
)
