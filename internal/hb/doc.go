// Package hb is the happens-before analysis of traces: vector clocks over a
// trace's steps (Clocks), the conflicting pairs of steps conflict analysis
// learns from (ConflictPairs, ConflictingEvents, ConflictMarker step by
// step), the partial order a schedule belongs to (PartialOrder), a
// linearization of it with few context switches (Linearize), the online
// data-race detector of plain memory (Races) and the ShiViz log drawn from
// the clocks (WriteShiViz).
//
// It reads the record of package trace and is the engine's: the runtime
// (internal/core) checks races with it, conflict analysis (strategy.CA)
// learns with it, the driver (internal/explore) shrinks and counts coverage
// with it, and the CLI's report draws with it. Every walk shares one walker
// (hb.go, with the edges of the Go-native primitives in hb_sync.go).
package hb
