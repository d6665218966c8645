// Package opkind holds what the strategies (package strategy) and the core
// (internal/core) must agree on about an op from its kind alone, for the
// core's hot path, which has no strategy.Op at hand.
package opkind

import "github.com/morpheus-go/morpheus/trace"

// Local reports whether an op of kind k on resource res affects no task but
// its own (strategy.Local): a task's start step, or the spawn of a
// goroutine.
func Local(k trace.Kind, res uint32) bool {
	return res == 0 && (k == trace.KindStart || k == trace.KindSpawn)
}
