package explore

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// facts is a union of iteration numbers: knowledge whose merge order does
// not matter.
type facts map[int]bool

func (k facts) Merge(o strategy.Knowledge) {
	for i := range o.(facts) {
		k[i] = true
	}
}

func (k facts) Clone() strategy.Knowledge {
	c := facts{}
	c.Merge(k)
	return c
}

func (k facts) sorted() []int {
	var out []int
	for i := range k {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// What an iteration reads depends only on its number: the iterations of the
// epochs before its own, whatever order they finished in. (An iteration
// starts before its own epoch is complete, so the learner never is past it.)
func TestLearnerEpochs(t *testing.T) {
	reads := func(reverse bool) [][]int {
		l := newLearner(facts{-1: true}) // the prior
		var out [][]int
		for e := 0; e < 3; e++ {
			k, ok := l.await(epochStart(e), func() bool { return false })
			if !ok {
				t.Fatal("await: not ok")
			}
			out = append(out, k.(facts).sorted())
			its := ascending(epochSize(e))
			if reverse {
				slices.Reverse(its)
			}
			for _, j := range its {
				l.finish(epochStart(e)+j, facts{epochStart(e) + j: true})
			}
		}
		return out
	}
	a, b := reads(false), reads(true)
	for e := range a {
		if want := append([]int{-1}, ascending(epochStart(e))...); !slices.Equal(a[e], want) || !slices.Equal(b[e], want) {
			t.Errorf("epoch %d reads %v and %v, want %v", e, a[e], b[e], want)
		}
	}
	if got := []int{epochStart(0), epochStart(1), epochStart(2), epochStart(7), epochStart(8)}; !slices.Equal(got, []int{0, 16, 48, 2032, 3056}) {
		t.Errorf("epoch starts %v", got)
	}
}

// A stopped run wakes a worker waiting for an epoch that will not complete.
func TestLearnerAwaitStops(t *testing.T) {
	l := newLearner(facts{})
	if _, ok := l.await(16, func() bool { return true }); ok {
		t.Error("await of a later epoch returned ok though the run stopped")
	}
	// Nothing learned yet: the final knowledge is the prior with the
	// unfinished epoch's iterations.
	l.finish(3, facts{3: true})
	if got := l.final().(facts).sorted(); !slices.Equal(got, []int{3}) {
		t.Errorf("final %v, want [3]", got)
	}
}

func ascending(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
