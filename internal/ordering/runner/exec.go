package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
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
// fresh private directory under base.
func execute(base string, run int, command []string, limit time.Duration, cfg server.Config) (outcome, error) {
	dir := filepath.Join(base, "r"+strconv.Itoa(run))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return outcome{}, err
	}
	defer os.RemoveAll(dir)
	srv, err := server.Start(filepath.Join(dir, "s"), cfg)
	if err != nil {
		return outcome{}, err
	}
	tail := &tailBuffer{}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), tracepoint.EnvSocket+"="+srv.Socket(), "MORPHEUS_RUN="+strconv.Itoa(run))
	cmd.Stderr = tail
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		srv.Stop()
		return outcome{}, fmt.Errorf("starting %s: %w", command[0], err)
	}
	pid := cmd.Process.Pid
	var hung bool
	var mu sync.Mutex
	timer := time.AfterFunc(limit, func() {
		mu.Lock()
		hung = true
		mu.Unlock()
		syscall.Kill(-pid, syscall.SIGKILL)
	})
	werr := cmd.Wait()
	timer.Stop()
	// Whatever the launch command left behind in its group goes too.
	syscall.Kill(-pid, syscall.SIGKILL)
	o := outcome{millis: int(time.Since(start) / time.Millisecond), res: srv.Stop()}
	mu.Lock()
	o.hung = hung
	mu.Unlock()
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		o.exit = ee.ExitCode() // -1 when killed by a signal
	case errors.Is(werr, exec.ErrWaitDelay):
		// The command exited but a descendant held stderr open.
	default:
		return o, werr
	}
	o.stderr = tail.String()
	return o, nil
}

// tailBuffer keeps the last StderrTail bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > StderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-StderrTail:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
