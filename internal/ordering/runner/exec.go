package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/tracepoint"
)

// StderrTail is how many bytes of a run's stderr are kept.
const StderrTail = 2048

// outcome is what one execution of the system gave.
type outcome struct {
	exit   int
	hung   bool
	millis int
	stderr string
	res    server.Result
}

// execute runs command once with an ordering server configured by cfg, in a
// fresh private directory under base. The command's stderr goes to errFile,
// emptied first (a file, not a pipe: no copying goroutine, and a descendant
// that keeps it open cannot delay the end of the run).
func execute(base string, run int, command []string, limit time.Duration, cfg server.Config, errFile *os.File) (outcome, error) {
	dir := filepath.Join(base, "r"+strconv.Itoa(run))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return outcome{}, err
	}
	defer os.RemoveAll(dir)
	srv, err := server.Start(filepath.Join(dir, "s"), cfg)
	if err != nil {
		return outcome{}, err
	}
	if err := errFile.Truncate(0); err != nil {
		srv.Stop()
		return outcome{}, err
	}
	if _, err := errFile.Seek(0, io.SeekStart); err != nil {
		srv.Stop()
		return outcome{}, err
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), tracepoint.EnvSocket+"="+srv.Socket(), "MORPHEUS_RUN="+strconv.Itoa(run))
	cmd.Stderr = errFile
	newGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		srv.Stop()
		return outcome{}, fmt.Errorf("starting %s: %w", command[0], err)
	}
	var hung bool
	var mu sync.Mutex
	stopLimit := startLimit(limit, func() {
		mu.Lock()
		hung = true
		mu.Unlock()
		killGroup(cmd.Process)
	})
	werr := cmd.Wait()
	stopLimit()
	// Whatever the launch command left behind in its group goes too.
	killGroup(cmd.Process)
	o := outcome{millis: int(time.Since(start) / time.Millisecond), res: srv.Stop()}
	mu.Lock()
	o.hung = hung
	mu.Unlock()
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		o.exit = ee.ExitCode() // -1 when killed by a signal
	default:
		return o, werr
	}
	o.stderr, err = tail(errFile)
	return o, err
}

// startLimit starts the clock of a run's time limit: expire is called once
// limit has passed, unless stop is called first. A test replaces it to start
// the clock when its helper process is known to hang, rather than race a
// short limit against the process's start-up.
var startLimit = func(limit time.Duration, expire func()) (stop func()) {
	t := time.AfterFunc(limit, expire)
	return func() { t.Stop() }
}

// tail returns the last StderrTail bytes of f.
func tail(f *os.File) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	off := max(fi.Size()-StderrTail, 0)
	buf := make([]byte, fi.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return string(buf[:n]), nil
}
