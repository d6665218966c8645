package rt

import (
	"slices"
	"testing"
)

// A test's functions are those marked while it ran with those marked
// outside every test before it; a test running alongside another keeps
// the marks the other set until both ended.
func TestMarksOfATest(t *testing.T) {
	saved := marks.files
	savedOutside, savedActive := marks.outside, marks.active
	t.Cleanup(func() { marks.files, marks.outside, marks.active = saved, savedOutside, savedActive })
	marks.files, marks.outside, marks.active = nil, nil, 0
	if _, on := marksNow(); on {
		t.Fatal("a process without marks says it has some")
	}
	var m [3]uint32
	Marks("example.com/p", []string{"A", "T.B", "C"}, m[:])
	want := func(why string, names ...string) {
		t.Helper()
		got, on := marksNow()
		if !on || !slices.Equal(got, names) {
			t.Errorf("%s: %v (marks %v), want %v", why, got, on, names)
		}
	}
	Mark(&m[2]) // at initialisation
	marksBegin()
	want("nothing run yet", "example.com/p C")
	Mark(&m[0])
	Mark(&m[0])
	want("A ran", "example.com/p A", "example.com/p C")
	marksEnd()
	marksBegin()
	want("the next test", "example.com/p C")
	marksBegin() // one alongside
	Mark(&m[1])
	marksEnd()
	want("the other ended", "example.com/p C", "example.com/p T.B")
	marksEnd()
	Mark(&m[0]) // between tests: for every later test
	marksBegin()
	want("after a mark between tests", "example.com/p A", "example.com/p C")
	marksEnd()
}

// The mark of a function called in a hot loop: a load and a branch once
// set (compare BenchmarkWriteOp, a rewritten store).
func BenchmarkMark(b *testing.B) {
	var m [1]uint32
	for b.Loop() {
		Mark(&m[0])
	}
}

var sink int

//go:noinline
func markedLeaf(m *uint32, x int) int {
	Mark(m)
	return x + 1
}

//go:noinline
func plainLeaf(x int) int { return x + 1 }

// A call of a marked function against the same call unmarked.
func BenchmarkMarkedCall(b *testing.B) {
	var m [1]uint32
	for b.Loop() {
		sink = markedLeaf(&m[0], sink)
	}
}

func BenchmarkPlainCall(b *testing.B) {
	for b.Loop() {
		sink = plainLeaf(sink)
	}
}
