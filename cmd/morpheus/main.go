// Command morpheus runs morpheus's demo, benchmarks and tools.
//
// Usage:
//
//	morpheus <command> [flags] [args]
//
// Run "morpheus help" for the list of commands.
//
// The command is built with profile-guided optimization: go build uses
// default.pgo, the CPU profile of its own workloads that the benchmarks'
// bench/cmd/pgogen writes.
package main

//go:generate go run -C ../../bench ./cmd/pgogen -o ../cmd/morpheus/default.pgo

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/morpheus-go/morpheus/internal/cli"
	"github.com/morpheus-go/morpheus/internal/interrupt"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	// run executes the command with its own flag set; it returns an error for
	// bad usage or a failed run. Output goes to stdout, diagnostics to stderr.
	run func(args []string, stdout, stderr io.Writer) error
}

// commands is the subcommand table. Files add their commands from init
// functions with register, so each command lives in its own file.
var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage marks an error that was already explained to the user.
var errUsage = cli.ErrUsage

// interruptible are the commands that run tests or campaigns: a first
// SIGINT or SIGTERM makes them stop starting work, pass the interrupt on to
// their test processes (which finish and write their records), wait for
// them and report what was done; a second kills the processes and exits at
// once (package interrupt) with status 130, 143 after a SIGTERM. After the
// first, they exit with status 130.
// ("bench" runs the benchmarks' own command, which does so itself.)
var interruptible = map[string]bool{"test": true, "rewrite": true, "fuzz": true, "demo": true}

// exitInterrupted is the exit status of an interrupted command, as a shell
// shows a process ended by SIGINT.
const exitInterrupted = cli.ExitInterrupted

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a command and returns the process exit code:
// 0 success, 1 the command ran and failed, 2 bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "morpheus help: unknown command %q; \"morpheus help\" lists them\n", args[1])
				return 2
			}
			_ = c.run([]string{"-h"}, stdout, stdout)
			return 0
		}
		usage(stdout)
		return 0
	}
	if name == "-version" || name == "--version" {
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "morpheus: unknown command %q; \"morpheus help\" lists them\n", name)
		return 2
	}
	if interruptible[name] {
		defer interrupt.Watch()()
	}
	err := c.run(args[1:], stdout, stderr)
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	return cli.Exit(name, err, interruptible[name] && interrupt.Interrupted(), stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "morpheus finds concurrency and fault-handling bugs by running a test under a controlled scheduler.")
	fmt.Fprintln(w, "\nUsage:\n\n\tmorpheus <command> [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"morpheus help <command>\" or \"morpheus <command> -h\" for a command's flags.")
}

// newFlagSet returns a flag set for a command that reports errors instead of
// exiting, and prints its usage on stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlagSet(name, synopsis, stderr)
}

// parseFlags parses args into fs and maps a parse error to errUsage; a bad
// flag gets a hint for go test's flags that morpheus names otherwise.
func parseFlags(fs *flag.FlagSet, args []string) error {
	return cli.Parse(fs, args, goTestFlagHint)
}

// goTestFlagHint says what stands for a go test flag that fs lacks, when
// err is that flag's "not defined" error and fs is morpheus test's or
// rewrite's.
func goTestFlagHint(fs *flag.FlagSet, err error) string {
	if fs.Lookup("iterations") == nil || fs.Lookup("maxsteps") == nil {
		return ""
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	switch strings.TrimPrefix(name, "-") {
	case "v":
		return "-v: morpheus prints every test's verdict without it (-json for records, MORPHEUS_STACKS=1 for full stacks)"
	case "timeout":
		return "-timeout: a schedule is bounded by its step limit (-maxsteps), a goroutine blocked outside morpheus's control by -watchdog"
	case "parallel", "p":
		return "-" + name + ": -jobs N is the number of test processes per package"
	}
	return ""
}
