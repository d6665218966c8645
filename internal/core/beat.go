//go:build !race

package core

// A worker tells its watchdog of its progress at every step (the step count)
// and every switch (the task it resumes); the watchdog reads both once per
// tick, a quarter of its limit. Without the race detector these are plain
// stores and loads: a word-sized read observes some value written (the Go
// memory model), the watchdog needs a step's progress only eventually, and
// the ticker's channel receive keeps its loads in its loop. A sequentially
// consistent store (an XCHG on amd64, which waits for the worker's pending
// stores, the trace's among them) at every step and switch was a visible
// part of a message round trip's time (BENCHMARKS.md). Under the race detector
// the same reads and writes are atomic (beat_race.go), so that the detector
// sees them ordered.

func beat(p *int64, step int64)     { *p = step }
func loadBeat(p *int64) int64       { return *p }
func publishTask(p **Task, t *Task) { *p = t }
func loadTask(p **Task) *Task       { return *p }
