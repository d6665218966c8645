package rewrite

// rtPath is the import path of the runtime that rewritten code imports, and
// rtName the name it is imported as.
const (
	rtPath = "github.com/morpheus-go/morpheus/rt"
	rtName = "__rt"
)

// redirect lists the standard-library names whose uses are redirected to
// package rt's of the same name: package path, then names.
var redirect = map[string]map[string]bool{
	"sync": set("Mutex", "RWMutex", "WaitGroup", "Once", "Cond", "NewCond",
		"OnceFunc", "OnceValue", "OnceValues", "Map", "Pool"),
	"time": set("Sleep", "Now", "Since", "Until", "After", "Tick", "NewTimer",
		"AfterFunc", "Timer", "NewTicker", "Ticker"),
	"context": set("WithCancel", "WithCancelCause", "WithTimeout", "WithDeadline",
		"WithTimeoutCause", "WithDeadlineCause", "Cause"),
	"runtime": set("Gosched", "SetFinalizer", "AddCleanup", "Stack", "NumGoroutine", "Caller", "Callers", "ReadMemStats"),
	// iter.Pull's sequence runs on a goroutine of the schedule, not on a
	// coroutine of Go's runtime that no schedule controls.
	"iter": set("Pull", "Pull2"),
}

// noted lists redirected names that -list still shows, with what control
// they are under: package path, name, note.
var noted = map[string]map[string]string{
	"runtime": {
		"SetFinalizer": "registered in a schedule, the finalizer runs at its end, in a goroutine of the schedule; registered outside one (init, TestMain), on the runtime's goroutine, outside control",
		"AddCleanup":   "registered in a schedule, the cleanup runs at its end, in a goroutine of the schedule; registered outside one (init, TestMain), on the runtime's goroutine, outside control",
	},
}

// renamed lists the standard-library names whose uses are redirected to
// package rt under another name: package path, then name, then rt's name.
// math/rand's globals, and crypto/rand's Read and Text, draw from the
// schedule's generator; net's dial and listen functions reach the
// schedule's in-memory network.
var renamed = map[string]map[string]string{
	"net":     {"Dial": "Dial", "DialTimeout": "DialTimeout", "Listen": "Listen", "ListenPacket": "ListenPacket", "Pipe": "Pipe"},
	"context": {"AfterFunc": "ContextAfterFunc"},
	"math/rand": prefixed("Rand", "Seed", "Int", "Intn", "Int31", "Int31n", "Int63", "Int63n",
		"Uint32", "Uint64", "Float32", "Float64", "ExpFloat64", "NormFloat64", "Perm", "Shuffle", "Read"),
	"math/rand/v2": prefixed("Rand2", "Int", "IntN", "Int32", "Int32N", "Int64", "Int64N", "Uint",
		"UintN", "Uint32", "Uint32N", "Uint64", "Uint64N", "Float32", "Float64", "ExpFloat64",
		"NormFloat64", "Perm", "Shuffle", "N"),
	"crypto/rand":      prefixed("Crypto", "Read", "Text"),
	"testing/synctest": prefixed("Synctest", "Test", "Wait"),
	"reflect":          {"Select": "ReflectSelect"},
	// Code of the program that asks for signals makes os/signal's
	// goroutine, which morpheus's test binaries start anyway, its own.
	"os/signal": {"Notify": "SignalNotify", "NotifyContext": "SignalNotifyContext"},
}

func prefixed(prefix string, names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = prefix + n
	}
	return m
}

// keepUsed names, per package path, a function that a blank declaration at
// the end of a rewritten file uses, so that an import all of whose uses
// were redirected still compiles.
var keepUsed = map[string]string{
	"sync":             "NewCond",
	"time":             "Now",
	"context":          "Background",
	"runtime":          "Gosched",
	"sync/atomic":      "AddInt32",
	"net":              "Dial",
	"math/rand":        "Int",
	"math/rand/v2":     "Int",
	"crypto/rand":      "Int",
	"testing/synctest": "Wait",
	"reflect":          "TypeOf",
	"iter":             "Pull[int]",
	"os/signal":        "Ignored",
}

// atomicTypes are the sync/atomic types whose methods are accesses.
var atomicTypes = set("Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool", "Value", "Pointer")

// unsupported lists the calls the rewriter cannot put under control, with
// why: package path, name, reason.
var unsupported = map[string]map[string]string{
	"runtime": {
		"LockOSThread":   "thread affinity is not modelled",
		"UnlockOSThread": "thread affinity is not modelled",
	},
	"os/exec": {
		"Command":        "child processes run outside control",
		"CommandContext": "child processes run outside control",
	},
	"plugin": {"Open": "plugins are not rewritten"},
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
