package core

import (
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// first always runs the first enabled op.
type first struct{}

func (*first) Name() string           { return "first" }
func (*first) Begin(uint64)           {}
func (*first) Next([]strategy.Op) int { return 0 }
func (*first) Choose(int) int         { return 0 }
func (*first) End(*trace.Trace)       {}
