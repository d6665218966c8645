package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/tracepoint"
)

// Workers is the number of worker processes.
const Workers = 3

// job is worker n's job.
func job(n int) int { return 10 + n }

// expected is worker n's correct result, with the configuration every worker
// loads.
func expected(n int) int { return job(n) * loadConfig().Multiplier }

// procName is worker n's process name in the trace.
func procName(n int) string { return "w" + strconv.Itoa(n) }

// setProcessName names this process in the trace (before its first hit).
func setProcessName(n string) { os.Setenv(tracepoint.EnvProcess, n) }

// hit reports a tracepoint; without MORPHEUS_SOCKET it does nothing. An
// unreachable server is not the system's failure, so errors are ignored.
func hit(name string, attrs ...string) { _ = tracepoint.Hit(name, attrs...) }

// coordinate runs the coordinator: it starts the workers, waits for their
// registrations, starts them, and checks their results.
func coordinate(fixed bool) error {
	if os.Getenv(tracepoint.EnvProcess) == "" {
		setProcessName("coord")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	hit("listen")
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var procs []*exec.Cmd
	for n := 1; n <= Workers; n++ {
		args := []string{"worker", strconv.Itoa(n), ln.Addr().String()}
		if fixed {
			args = append(args, "-fixed")
		}
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), tracepoint.EnvProcess+"="+procName(n))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return err
		}
		procs = append(procs, cmd)
	}
	defer func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}()
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(30 * time.Second))

	c := &coordinator{start: make(chan struct{}), errs: make(chan error, Workers)}
	for i := 0; i < Workers; i++ {
		conn, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("waiting for workers: %w", err)
		}
		go c.serve(conn)
	}
	for i := 0; i < Workers; i++ {
		if err := <-c.errs; err != nil {
			return err
		}
	}
	hit("done")
	return nil
}

type coordinator struct {
	mu         sync.Mutex
	registered int
	start      chan struct{}
	errs       chan error
}

// serve runs one worker's connection; it reports the worker's outcome on
// c.errs.
func (c *coordinator) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	var n int
	if _, e := fmt.Sscanf(line, "register %d\n", &n); err != nil || e != nil || n < 1 || n > Workers {
		c.errs <- fmt.Errorf("bad registration %q: %v", line, err)
		return
	}
	hit("register", "worker="+strconv.Itoa(n))
	c.mu.Lock()
	c.registered++
	last := c.registered == Workers
	c.mu.Unlock()
	if last {
		hit("start")
		close(c.start)
	}
	<-c.start
	if _, err := fmt.Fprintf(conn, "start %d\n", job(n)); err != nil {
		c.errs <- err
		return
	}
	line, err = r.ReadString('\n')
	if err != nil {
		c.errs <- fmt.Errorf("worker %d: no result: %v", n, err)
		return
	}
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "result" {
		c.errs <- fmt.Errorf("worker %d: bad result line %q", n, line)
		return
	}
	v, _ := strconv.Atoi(f[1])
	hit("result", "worker="+strconv.Itoa(n))
	if v != expected(n) {
		c.errs <- fmt.Errorf("wrong result: worker %d computed %d for job %d, expected %d", n, v, job(n), expected(n))
		return
	}
	c.errs <- nil
}
