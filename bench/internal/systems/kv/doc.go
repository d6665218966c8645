// Package kv is a tiny replicated key-value store, written for morpheus and
// checked for linearizability with package linearize.
//
// A primary and a backup run on two nodes. A client sends Put to the primary,
// which applies it, sends it to the backup (Replicate) and acknowledges it
// (PutReply) once the backup has applied it too (Replicated): replication is
// synchronous, so every acknowledged write is on both replicas. The primary
// keeps serving requests while writes replicate. A client sends Get to a
// replica, which answers from its own data (GetReply). Messages between nodes
// arrive in any order (morpheus.Faults.Reorder); the backup applies writes in
// the primary's order all the same.
//
// # The bug
//
// With Config.BackupReads, the clients' load balancer spreads gets over both
// replicas, on the reasoning that synchronous replication keeps the backup
// up to date. It does not: the primary serves a write before the backup has
// it. While put("y", "0.0") replicates, a client can read "0.0" from the
// primary and then "" from the backup:
//
//	client 0  put("y", "0.0")  |-----------------------------|
//	client 2    get("y") → "0.0" |--|  get("y") → "" |--|
//
// No order of the three operations explains both reads, and linearize.Check
// fails the iteration:
//
//	linearizability: 9 operations of 3 clients are not linearizable (longest linearizable prefix: 3 of the 5 operations of partition 1 of 2)
//	linearizable prefix:
//	    put("y", "0.0")  [client 0, operation 0: called at 0s (event 1), returned at 0s (event 10)]
//	    get("y") → "0.0"  [client 2, operation 2: called at 0s (event 3), returned at 0s (event 4)]
//	    ...
//	cannot be linearized after it:
//	    get("y") → ""  [client 2, operation 3: called at 0s (event 6), returned at 0s (event 8)]
//	    ...
//
// with porcupine's visualisation attached (<trace>.linearizability.html
// beside the saved trace). Reading only from the primary (the default) is
// linearizable: the primary's data is the order of the writes.
//
// # The harness
//
// Test(cfg) plays three clients that each issue three gets or puts of
// nondeterministic keys (Env.Choose), recording them in a linearize.History,
// and checks the history against linearize.KVModel at the end. With
// Config.Drops the network also loses messages: a client that gets no reply
// times out and moves on, and its operation stays pending, which the checker
// must allow to have taken effect or not.
//
// This is a subject system of morpheus's own tools, not part of its API:
// morpheus bench replay replays its failures (package internal/sweep), with
// figures recorded in BENCHMARKS.md. It imports only morpheus's public
// packages, so it can be copied as a worked example of linearize.
package kv
