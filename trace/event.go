package trace

// Event is one entry of a trace: usually a step (one op of one task), or a
// fact recorded for readers such as a clock jump. It is 32 bytes and holds no
// pointers, so a run of millions of steps records cheaply.
type Event struct {
	Task int32  // the task that ran the op (-1 for events of the runtime itself)
	Obj  int32  // the other task involved, or -1 (see the Kind constants)
	Res  uint32 // the resource the op touched, numbered within the iteration; 0 = none
	Kind Kind
	Flag Flag
	_    [2]byte
	Val  int64  // kind-specific value: message id, chosen value, time in ns, node index
	Loc  uint64 // code location: a program counter in memory, an index after Decode
}

// Flag qualifies an event.
type Flag uint8

const (
	FlagRead       Flag = 1 << iota // the op only read its resource (reads do not conflict with reads)
	FlagTimeout                     // a receive or wait ended by its time-out
	FlagDropped                     // a message was not delivered (receiver dead or gone); on a fault decision: the fault was a drop
	FlagFault                       // a KindChoose that decided a message's fate (Env.SetFaults); Obj is the receiver
	FlagDuplicated                  // on a fault decision: the message is delivered twice
	FlagDelayed                     // on a fault decision: the message is held in flight
)

// IsStep reports whether the event is a scheduling step (as opposed to a fact
// the runtime recorded, such as a clock jump).
func (e *Event) IsStep() bool { return e.Kind != KindClock }

// Special values of Val for the kinds of the Go-native primitives (see Kind).
const (
	// ValNone marks a step without effect: the op found its object
	// unavailable (a lock taken, a full channel, a counter not yet zero) and
	// its task now waits; a select that took its default case; a timer whose
	// channel was full.
	ValNone int64 = -1
	// ValClosed marks a receive that observed a closed channel, or a read
	// that observed the end of a stream.
	ValClosed int64 = -2
)
