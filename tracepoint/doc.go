// Package tracepoint lets a process of a system under test report tracepoints
// to morpheus's ordering server ("morpheus fuzz") and be held there until the
// server releases it. Any process in any language can take part: the protocol
// is a few text lines over a Unix socket (see below and
// docs/tracepoint-protocol.md); this package is the Go client.
//
// When the environment variable MORPHEUS_SOCKET is unset (the system runs on
// its own), Hit does nothing and returns nil at once, so tracepoints can stay
// in production code. When it is set, the first Hit connects to the socket it
// names, introduces the process by its name (MORPHEUS_PROCESS, or the base
// name of the executable), and every Hit then blocks until the server lets the
// process pass. The server records the order in which tracepoints pass, on one
// clock, and may hold a process to force a pairwise order it has not yet seen.
//
// Place a tracepoint after the inputs of the event it marks are received and
// before its effects are visible to other processes (the input-tracepoint-
// effect assumption of the Lingua Franca testing paper): then an order the
// server observes is an order the system really allowed.
//
// # Protocol, version 1
//
// One request at a time per connection; each line ends in '\n':
//
//	client: hello 1 PROCESS          server: ok 1     (the first line)
//	client: hit NAME [KEY=VALUE...]  server: go       (when the server releases the hit)
//	client: bye                      server: closes the connection
//
// PROCESS, NAME, KEY and VALUE are 1 to 128 bytes of [A-Za-z0-9._-/]. A bad
// line gets "err MESSAGE" and the connection is closed. The server names the
// event PROCESS:NAME{KEY=VALUE,...}#N, where N counts the earlier events with
// the same name in the run. A process whose goroutines hit tracepoints
// concurrently uses several connections (this client keeps a pool); they all
// count as the same process.
package tracepoint
