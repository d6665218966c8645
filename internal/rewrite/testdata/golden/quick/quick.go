// Package quick calls testing/quick's Check and CheckEqual with no config,
// a config without a generator and one with its own: the rewriter wraps
// each config in rt.QuickConfig, under an import name of the file's own.
package quick

import (
	"math/rand"
	q "testing/quick"
)

func check(f any) error {
	return q.Check(f, nil)
}

func checkEqual(f, g any) error {
	return q.CheckEqual(f, g, &q.Config{MaxCount: 10})
}

func own(f any) error {
	return q.Check(f, &q.Config{Rand: rand.New(rand.NewSource(1))})
}
