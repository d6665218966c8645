// Package programs holds test programs that morpheus's own tests and the
// benchmarks' command (bench/, a module of its own that reaches this
// package by path) both run, so that the two run the same code: spin-waiting
// code for fairness (spin.go) and a liveness failure under chaos
// (liveness.go).
package programs
