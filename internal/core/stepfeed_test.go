package core

import (
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// stepCounter is a StepReader that reads the steps of the iterations whose
// seed is odd, and counts what the runtime hands it.
type stepCounter struct {
	first
	reads           bool
	executed, dones int
}

func (s *stepCounter) Begin(seed uint64)                   { s.reads = seed%2 == 1 }
func (s *stepCounter) ReadsSteps() bool                    { return s.reads }
func (s *stepCounter) Executed(*trace.Event, strategy.Sig) { s.executed++ }
func (s *stepCounter) StepsDone(bool)                      { s.dones++ }

// The runtime asks a StepReader after Begin whether it reads the
// iteration's steps, and hands it none, nor StepsDone, if it does not.
func TestStepReaderReadsSteps(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	for seed := uint64(0); seed < 4; seed++ {
		s := &stepCounter{}
		var r *Run
		out := w.Execute(Config{Strategy: s, Seed: seed}, func(run *Run) { r = run }, func() {
			main := r.Current()
			for i := range 3 {
				r.Spawn(main, "t", uint64(i+1), func() { r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1}) })
			}
		})
		if out.Failure != nil {
			t.Fatalf("seed %d: %v", seed, out.Failure.Message)
		}
		switch {
		case !s.reads && (s.executed != 0 || s.dones != 0):
			t.Errorf("seed %d: reads no steps, yet handed %d steps and %d StepsDone", seed, s.executed, s.dones)
		case s.reads && (s.executed != out.Steps || s.dones != 1):
			t.Errorf("seed %d: handed %d of %d steps and %d StepsDone, want all and one", seed, s.executed, out.Steps, s.dones)
		}
	}
}
