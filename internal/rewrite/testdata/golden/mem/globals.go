// Package mem holds the loads and stores of plain memory the rewriter makes
// ops, and those it leaves plain.
package mem

import (
	"errors"
	"io"
)

// Hits is exported: another package may write it, so it is shared.
var Hits int

// Timeout is exported, but no package of the load writes it: plain.
var Timeout = 5

// misses is written after initialisation: shared.
var misses int

// limit is only read after its declaration: plain.
var limit = 10

// mode is assigned only at the top level of init: plain.
var mode string

// cfg has its address taken: shared.
var cfg struct{ name string }

// errNone is never written: comparing with it is no op, nor with io.EOF,
// which no rewritten code writes.
var errNone = errors.New("none")

func init() {
	mode = "fast"
}

func configure() *struct{ name string } { return &cfg }

func Count(err error) int {
	Hits++
	if err == io.EOF || err == errNone {
		misses += 1
	}
	if Hits > limit+Timeout && mode != "" {
		return misses
	}
	return len(cfg.name)
}
