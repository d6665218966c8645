// Package storage is the replicating storage system of the P# paper (Deligiannis
// et al., FAST'16, §2.2), written for morpheus: a server that must not
// acknowledge a client's data before three storage nodes hold it.
//
// A client sends ClientReq to the server and waits for Ack before its next
// request. The server stores the data and sends ReplReq to three storage
// nodes. Each node stores what it receives and, on a periodic timer, reports
// its log to the server in a Sync message. The server answers an outdated
// Sync with a new ReplReq; an up-to-date one counts as a replica, and at three
// replicas it sends the client Ack.
//
// The server has the paper's two bugs, each behind a switch of Config:
//
//   - Bug A (safety): the replica counter counts every up-to-date Sync, even
//     from a node already counted, so Ack can go out with fewer than three
//     distinct replicas. A safety monitor that knows what every node holds
//     catches it.
//   - Bug B (liveness): the counter is not reset for a new request, so the
//     second request is never acknowledged. A liveness monitor, hot from a
//     request until its Ack, catches it: the nodes' timers keep the system
//     busy, but the monitor stays hot until the clock limit.
//
// A storage node's log only grows: a replication request that the network
// delayed past a newer one is ignored. (Without that rule, morpheus finds an
// Ack whose data a late, stale request has already overwritten.)
//
// The harness (Test) models what the paper's harness models: the network,
// which delays replication requests by a nondeterministic number of timer
// periods, and the client. Everything else is the system's own code.
//
// This is a subject system of morpheus's own tools, not part of its API: the
// demo (morpheus demo) runs it, and the bug suite (morpheus bench bugs) and
// the shrinking and coverage benchmarks measure on it, with figures recorded
// in BENCHMARKS.md. It imports only morpheus's public packages, so it can be
// copied as a worked example; examples/quickstart is the one written for
// that.
package storage
