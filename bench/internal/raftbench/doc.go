// Package raftbench is bench raft: etcd raft (package systems/raft) under
// morpheus. It measures the hit ratio of every strategy on each of the raft
// user bugs, with the harness of package hitratio, and runs the correct
// harness for a while under every strategy, where any failure is a defect
// and the throughput (iterations, client operations and steps per second)
// is the figure.
package raftbench
