// Command morpheus-bench runs morpheus's benchmark suites (bugs, sct, perf,
// micro, raft, goker, goreal, modules, fuzz, ...). It is the program behind
// "morpheus bench": the morpheus command builds it from the clone it was
// built from and runs it, so
//
//	morpheus bench <suite> [flags]
//	go run ./bench/cmd/morpheus-bench <suite> [flags]   (from the clone)
//
// do the same. The suites that run the morpheus command (goreal, modules,
// fuzz -coverage) run $MORPHEUS_BIN, which "morpheus bench" sets to itself;
// without it they build the command from the same clone.
//
// The benchmarks are a module of their own (this one) so that the library's
// go.mod does not require what only they use (etcd's raft, protobuf).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/morpheus-go/morpheus/internal/cli"
	"github.com/morpheus-go/morpheus/internal/interrupt"
)

// command is one benchmark suite (or "bench" itself, bench.go's table).
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands holds the "bench" command, which bench.go registers.
var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage marks an error that was already explained to the user.
var errUsage = cli.ErrUsage

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the suite args name ("bench SUITE ..." or "SUITE ...") and
// returns the exit code: 0 success, 1 a failed run, 2 bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "bench" {
		args = args[1:]
	}
	defer interrupt.Watch()()
	err := commands["bench"].run(args, stdout, stderr)
	return cli.Exit("bench", err, interrupt.Interrupted(), stderr)
}

// morpheusExecutable returns the morpheus command the suites run:
// $MORPHEUS_BIN, or one built once from the clone this program was built
// from.
func morpheusExecutable() (string, error) {
	if p := os.Getenv("MORPHEUS_BIN"); p != "" {
		return p, nil
	}
	built.once.Do(func() {
		var dir []byte
		if dir, built.err = exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/morpheus-go/morpheus").Output(); built.err != nil {
			built.err = fmt.Errorf("locating morpheus's source to build the command (set MORPHEUS_BIN): %w", built.err)
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "morpheus-bench-cli-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "morpheus")
		cmd := exec.Command("go", "build", "-o", built.path, "./cmd/morpheus")
		cmd.Dir = strings.TrimSpace(string(dir))
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("building the morpheus command (set MORPHEUS_BIN): %v\n%s", err, out)
		}
	})
	return built.path, built.err
}

// built is the morpheus command morpheusExecutable built (it stays for the
// process's life: the suites run it until they end).
var built struct {
	once      sync.Once
	dir, path string
	err       error
}

// newFlagSet returns a flag set for a suite that reports errors instead of
// exiting, and prints its usage on stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlagSet(name, synopsis, stderr)
}

// parseFlags parses args into fs and maps a parse error to errUsage; the
// flags' help is printed for -h only.
func parseFlags(fs *flag.FlagSet, args []string) error { return cli.Parse(fs, args, nil) }
