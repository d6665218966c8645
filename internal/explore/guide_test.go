package explore

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

func enabledOps(tasks ...int32) []strategy.Op {
	out := make([]strategy.Op, len(tasks))
	for i, t := range tasks {
		out[i] = strategy.Op{Task: t}
	}
	return out
}

// TestGuideDefaultOrder checks the non-preemptive default: the last task
// while it is enabled, else the lowest; and that only picks against it count
// as deviations.
func TestGuideDefaultOrder(t *testing.T) {
	g := &Guide{Switches: []Switch{{Step: 2, Task: 2}, {Step: 4, Task: 9}}}
	g.Begin(0)
	steps := [][]strategy.Op{enabledOps(0, 1, 2), enabledOps(0, 1, 2), enabledOps(0, 1, 2), enabledOps(1, 2), enabledOps(0, 1)}
	var got []int32
	for _, en := range steps {
		got = append(got, en[g.Next(en)].Task)
	}
	// step 0: lowest; 1: task 0 again; 2: the switch to 2; 3: 2 again;
	// 4: task 2 gone, switch to 9 impossible: the lowest, 0.
	if want := []int32{0, 0, 2, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("picked %v, want %v", got, want)
	}
	if d := g.Deviations(); !slices.Equal(d, []Switch{{Step: 2, Task: 2}}) {
		t.Fatalf("deviations %v", d)
	}
}

// TestGuideStepsAndChoices checks the Steps form, its fallback to the
// default where the scheduled task is not enabled, and choices: clamped,
// 0 past the end, recorded with what they offered.
func TestGuideStepsAndChoices(t *testing.T) {
	g := &Guide{Steps: []int32{1, 3, 0}, Choices: []int{5, 1}}
	g.Begin(0)
	var got []int32
	for _, en := range [][]strategy.Op{enabledOps(0, 1), enabledOps(0, 1), enabledOps(0, 1), enabledOps(0, 1)} {
		got = append(got, en[g.Next(en)].Task)
	}
	if want := []int32{1, 1, 0, 0}; !slices.Equal(got, want) {
		t.Fatalf("picked %v, want %v", got, want)
	}
	if d := g.Deviations(); !slices.Equal(d, []Switch{{Step: 0, Task: 1}, {Step: 2, Task: 0}}) {
		t.Fatalf("deviations %v", d)
	}
	vals := []int{g.Choose(3), g.Choose(4), g.Choose(2)}
	if want := []int{2, 1, 0}; !slices.Equal(vals, want) {
		t.Fatalf("choices %v, want %v", vals, want)
	}
	v, n := g.Taken()
	if !slices.Equal(v, []int{2, 1, 0}) || !slices.Equal(n, []int{3, 4, 2}) {
		t.Fatalf("taken %v of %v", v, n)
	}
}
