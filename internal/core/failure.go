package core

import "fmt"

// FailureKind classifies why an iteration failed.
type FailureKind string

// Failure kinds, as reports and trace files name them.
const (
	Assertion      FailureKind = "assertion"
	Panic          FailureKind = "panic"
	Deadlock       FailureKind = "deadlock"
	StepLimit      FailureKind = "step-limit"
	ClockLimit     FailureKind = "clock-limit"
	Uncontrolled   FailureKind = "uncontrolled-blocking"
	Nondeterminism FailureKind = "nondeterminism"
	Liveness       FailureKind = "liveness"
	Race           FailureKind = "race" // a data race on plain memory (see Run.Access)
	Leak           FailureKind = "leak" // goroutines still blocked after the main task returned (see leak.go)
)

// Failure describes why an iteration failed.
type Failure struct {
	Kind    FailureKind
	Message string
	Task    int32   // the failing task, or -1
	PC      uintptr // where it failed (0 if unknown)
	Stack   string  // the failing task's stack, for panics and uncontrolled blocking
	Step    int     // the step at which the failure was detected
}

func (f *Failure) Error() string { return fmt.Sprintf("%s: %s", f.Kind, f.Message) }

// unwind is the panic value that unwinds a task's stack when the task is
// killed or the iteration is aborted. Tasks recover it at their base.
type unwind struct{}

// exitSignal is the panic value with which a task ends itself early with a
// reason (an actor's Exit).
type exitSignal struct{ reason any }
