package core

import (
	"runtime"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

//go:noinline
func primitive() (fast, slow uintptr) {
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	return CallerPC(), pcs[0]
}

// inlinedCaller is small enough to be inlined into its own caller: the
// primitive's call site must still be its line.
func inlinedCaller() (uintptr, uintptr) { return primitive() }

func TestCallerPC(t *testing.T) {
	fast, slow := primitive()
	if fast != slow || Where(fast) != Where(slow) {
		t.Fatalf("CallerPC %#x (%s), runtime.Callers %#x (%s)", fast, Where(fast), slow, Where(slow))
	}
	fast, slow = inlinedCaller()
	if Where(fast) != Where(slow) {
		t.Fatalf("through an inlined caller: CallerPC %s, runtime.Callers %s", Where(fast), Where(slow))
	}
	t.Logf("%s %s", Where(fast), Where(slow))
}

func BenchmarkCallerPC(b *testing.B) {
	for b.Loop() {
		primitive()
	}
}

func TestCurrentTask(t *testing.T) {
	if CurrentTask() != nil {
		t.Fatal("a plain goroutine has a task")
	}
	w := NewWorker()
	defer w.Close()
	var seen []*Task
	var r *Run
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		seen = append(seen, CurrentTask())
		child := r.Spawn(r.Current(), "child", 1, func() { seen = append(seen, CurrentTask()) })
		r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
		_ = child
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	if len(seen) != 2 || seen[0] != r.Task(0) || seen[1] != r.Task(1) || seen[0].Run() != r {
		t.Fatalf("tasks seen: %v", seen)
	}
}
