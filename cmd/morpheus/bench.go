package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
)

func init() {
	register(&command{
		name:    "bench",
		summary: "run a benchmark suite (perf, micro, bugs, sct, ...) from morpheus's clone",
		run:     runBench,
	})
}

// The benchmarks are a module of their own, bench/ in morpheus's source
// (the library's go.mod does not require what they use). "morpheus bench
// SUITE ARGS" builds their command, bench/cmd/morpheus-bench, from the
// clone this command was built from (or $MORPHEUS_SRC), and runs it with
// ARGS in the current directory; $MORPHEUS_BENCH names a built one instead.
// The suites that run morpheus itself run this command ($MORPHEUS_BIN).
func runBench(args []string, stdout, stderr io.Writer) error {
	bin := os.Getenv("MORPHEUS_BENCH")
	if bin == "" {
		var err error
		if bin, err = buildBench(stderr); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = append(os.Environ(), "MORPHEUS_BIN="+self)
	// A ^C at the terminal reaches the suite too (one process group): this
	// process waits for it. A SIGTERM, sent to this process alone, is passed
	// on. The suite decides what an interrupt means (the first stops it
	// starting work, the second ends it), and its exit status is this
	// command's.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sig:
				if s == syscall.SIGTERM {
					cmd.Process.Signal(s)
				}
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exitStatus(exit.ExitCode())
	}
	return err
}

// exitStatus is the exit status of a command that ran another program
// and ends as it ended (run returns it as it is).
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// buildBench builds bench/cmd/morpheus-bench of morpheus's source into the
// user's cache directory (go build relinks it only when the source
// changed; benchBinary) and returns its path.
func buildBench(stderr io.Writer) (string, error) {
	src, err := sourceDir()
	if err != nil {
		return "", err
	}
	bin := benchBinary(userCacheDir(), src)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/morpheus-bench")
	cmd.Dir = filepath.Join(src, "bench")
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the benchmarks in %s: %w", cmd.Dir, err)
	}
	return bin, nil
}

// benchBinary is where the benchmarks' command of the clone src is built
// under the cache directory: one binary per clone, so that clones (a
// worktree each) never rebuild one another's while it runs. A src of "*"
// gives the pattern of them all (morpheus clean removes them).
func benchBinary(cache, src string) string {
	name := "*"
	if src != "*" {
		sum := sha256.Sum256([]byte(src))
		name = hex.EncodeToString(sum[:6])
	}
	bin := filepath.Join(cache, "morpheus", "morpheus-bench-"+name)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	return bin
}

// sourceDir returns the root of morpheus's source: $MORPHEUS_SRC, or where
// this file was built (a clone's cmd/morpheus/..).
func sourceDir() (string, error) {
	d := os.Getenv("MORPHEUS_SRC")
	if d == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			return "", fmt.Errorf("the benchmarks need morpheus's source (a clone): set MORPHEUS_SRC")
		}
		d = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	}
	if _, err := os.Stat(filepath.Join(d, "bench", "go.mod")); err != nil {
		return "", fmt.Errorf("the benchmarks need morpheus's source (a clone), not found at %s: set MORPHEUS_SRC, or run go -C bench run ./cmd/morpheus-bench in a clone", d)
	}
	return d, nil
}

// userCacheDir is the user's cache directory ($XDG_CACHE_HOME or ~/.cache
// on Linux), or the temporary directory if there is none.
func userCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return d
	}
	return os.TempDir()
}
