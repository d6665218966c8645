package goruntime

// Function names as runtime.Frame spells them, which morpheus looks for on
// a stack: no API promises them (see the canaries in frames_test.go).
const (
	// Gopanic is the runtime's function that runs a panic: the frames
	// below it, walking out, are where the panic was raised.
	Gopanic = "runtime.gopanic"
	// Goexit is runtime.Goexit, on the stack of a goroutine running the
	// deferred calls of a Goexit.
	Goexit = "runtime.Goexit"
	// FailNow and SkipNow are the testing package's methods that call
	// Goexit for t.FailNow (t.Fatal) and t.SkipNow (t.Skip).
	FailNow = "testing.(*common).FailNow"
	SkipNow = "testing.(*common).SkipNow"
)
