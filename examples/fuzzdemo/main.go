// Command fuzzdemo is a small system of real processes for "morpheus fuzz": a
// coordinator and three worker processes that talk over TCP on loopback and
// report tracepoints to morpheus's ordering server (package tracepoint). It
// has a real ordering bug that shows only under a transposition.
//
// Usage:
//
//	fuzzdemo [-fixed]        run the coordinator, which starts 3 workers
//	fuzzdemo pair            a trivial 2-process system (for throughput figures)
//
// The protocol: the coordinator listens on 127.0.0.1, starts the workers with
// its address, and waits for each to register. When all three have, it
// broadcasts "start"; each worker computes its job with its configuration and
// sends the result, which the coordinator checks.
//
// The bug: a worker loads its configuration in a goroutine, concurrently with
// registering, and reads it when "start" arrives without waiting for the
// loading to finish. Loading is fast and "start" needs a round trip through
// all three workers, so the configuration is always there in practice — until
// the ordering server holds a worker's config-loaded tracepoint until its
// start tracepoint has passed. Then the worker computes with the zero
// configuration and the coordinator exits 1 with "wrong result". With -fixed
// the worker waits for its configuration.
//
// Natural runs are strongly ordered by timing: worker n registers n·40ms
// after it starts and its job takes n·40ms (StaggerStep, JobStep), so that
// only the few pairs nothing orders closely (the workers' start-up, the
// broadcast of "start") show both ways without the server, as timing biases
// real systems. A held tracepoint may wait for up to 120ms of such natural
// delay: give "morpheus fuzz" a -timeout above that (its default is 300ms).
//
// Without MORPHEUS_SOCKET the tracepoints do nothing and the system just runs.
package main

import (
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run dispatches on the role and returns the exit code.
func run(args []string) int {
	role := ""
	if len(args) > 0 {
		role = args[0]
	}
	var err error
	switch role {
	case "", "-fixed":
		err = coordinate(role == "-fixed")
	case "worker":
		err = work(args[1:])
	case "pair":
		err = pair()
	case "pair-child":
		err = pairChild()
	default:
		fmt.Fprintf(os.Stderr, "fuzzdemo: unknown role %q: expected no argument, -fixed, pair (or worker, pair-child, started by fuzzdemo itself)\n", role)
		return 2
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fuzzdemo: %v\n", err)
		return 1
	}
	return 0
}
