// Package cli holds what the morpheus command and the benchmarks' command
// share in how they read flags and end: flag sets that report errors
// rather than exit, short usage errors with a hint, and one mapping from a
// command's outcome to its exit status.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// ErrUsage marks an error that was already explained to the user.
var ErrUsage = errors.New("usage")

// ExitInterrupted is the exit status of an interrupted command, as a shell
// shows a process ended by SIGINT.
const ExitInterrupted = 130

// NewFlagSet returns a flag set for a command that reports errors instead
// of exiting, and prints its usage ("Usage: morpheus SYNOPSIS" and the
// flags, if any) on stderr.
func NewFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: morpheus %s\n", synopsis)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprint(fs.Output(), "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// Parse parses args into fs and maps a parse error to ErrUsage. The flags'
// help is printed for -h only: a bad flag gets its error, hint's line if
// it has one (hint may be nil), and where the help is, rather than a page
// of help that scrolls the error away.
func Parse(fs *flag.FlagSet, args []string, hint func(*flag.FlagSet, error) string) error {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	}
	if hint != nil {
		if h := hint(fs, err); h != "" {
			fmt.Fprintln(fs.Output(), h)
		}
	}
	fmt.Fprintf(fs.Output(), "Run \"morpheus %s -h\" for its flags.\n", fs.Name())
	return ErrUsage
}

// Exit returns the exit status of command name (as "morpheus NAME" prints
// it) that returned err, printing err unless the user has seen it: 130
// after an interrupt, 0 for success or -h, 2 for bad usage, 1 for a
// failure.
func Exit(name string, err error, interrupted bool, stderr io.Writer) int {
	shown := err == nil || errors.Is(err, ErrUsage) || errors.Is(err, flag.ErrHelp)
	if interrupted {
		if !shown {
			fmt.Fprintf(stderr, "morpheus %s: %v\n", name, err)
		}
		fmt.Fprintf(stderr, "morpheus %s: interrupted: the figures above are those of the work done before the interrupt\n", name)
		return ExitInterrupted
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "morpheus %s: %v\n", name, err)
		return 1
	}
}
