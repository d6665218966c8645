package mtest

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/strategy"
)

// CountHits is explore.CountHits: every iteration runs, and Counts says how
// many failed and how many of those hit.
func CountHits(hit func(kind, msg string) bool) morpheus.Option { return explore.CountHits(hit) }

// Counts returns how many iterations of res failed, and how many of those
// the CountHits option's hit accepted.
func Counts(res *morpheus.Result) (failures, hits int) {
	r := explore.ResultOf(res)
	return r.Failures, r.Hits
}

// CA returns how conflict analysis predicted conflicts in res's run (nil
// without "+ca").
func CA(res *morpheus.Result) *strategy.CAStats { return explore.ResultOf(res).CA }
