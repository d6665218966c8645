package trace

// Kind is the kind of an op or event.
type Kind uint8

// Op kinds. The names (Kind.String) are part of the file format: never rename
// one, only add new kinds at the end.
const (
	KindInvalid    Kind = iota
	KindStart           // a task's first step, before any of its code runs
	KindExit            // a task ends (its body returned, or it exited with a reason)
	KindSpawn           // create a task; Obj is the child
	KindSend            // send a message; Obj is the receiver, Val the message id
	KindRecv            // receive a message; Obj is the sender, Val the message id (FlagTimeout if none)
	KindTimer           // a timer fires; Obj is the task it was set for
	KindSleep           // wake from a sleep
	KindChoose          // a controlled nondeterministic choice; Val is the value chosen
	KindCrash           // crash a node; Val is the node index
	KindRestart         // restart a node; Val is the node index
	KindRegister        // register a name
	KindUnregister      // unregister a name
	KindWhereis         // look up a registered name
	KindWatch           // watch a process for its exit; Obj is the target
	KindUnwatch         // cancel a watch
	KindLink            // link to a process; Obj is the target
	KindUnlink          // remove a link
	KindKill            // send an exit signal; Obj is the target
	KindClock           // the virtual clock jumped; Val is the new time in ns (not a step)
	KindYield           // a plain scheduling point
	KindNode            // create a node; Val is the node index
	KindCancel          // cancel a timer; Obj is the timer task
	KindDeliver         // the network delivers a message in flight; Obj is the receiver, Val the message id
	KindPartition       // split the network; Val is the partition's number
	KindHeal            // heal every partition
	KindDiskWrite       // write to a node's disk (lost on a crash until synced)
	KindDiskSync        // make a node's disk writes durable
	KindDiskRead        // read from a node's disk

	// Go-native primitives (package csync). Val conventions for the happens-
	// before edges are in internal/hb (hb_sync.go).
	KindChanSend      // send on a channel; Res is the channel, Val the value's id
	KindChanRecv      // receive from a channel; Obj is the sender, Val the value's id (ValClosed, ValNone)
	KindChanClose     // close a channel
	KindChanLen       // read a channel's length (a read)
	KindSelect        // a select statement: as KindChanSend or KindChanRecv on the case's channel, Val as theirs (ValNone: default)
	KindLock          // lock a mutex (ValNone: found it locked, will wait)
	KindUnlock        // unlock a mutex
	KindRLock         // read-lock an RWMutex (a read; ValNone: found it write-locked or wanted)
	KindRUnlock       // read-unlock an RWMutex (a read)
	KindTryLock       // try to lock a mutex (ValNone and FlagRead: it was locked)
	KindWGAdd         // add to a WaitGroup's counter; Val is the delta
	KindWGWait        // wait for a WaitGroup's counter to reach zero (a read; ValNone: still positive)
	KindOnce          // Once.Do: Val 1 if it runs f, 0 (a read) if f ran or runs
	KindCondWait      // wake from Cond.Wait; Val is the id of the signal or broadcast that woke it
	KindCondSignal    // Cond.Signal; Val is its id
	KindCondBroadcast // Cond.Broadcast; Val is its id
	KindLoad          // read a shared variable (a read)
	KindStore         // write a shared variable
	KindSwap          // swap a shared variable's value (read and write)
	KindCAS           // compare-and-swap; Val 1 if it swapped, 0 (and FlagRead) if not
	KindAdd           // add to a shared integer (read and write)
	KindTimerFire     // a timer of package csync fires; Val is the id of the time value sent (ValNone: none)
	KindNetListen     // listen on an in-memory network address
	KindNetDial       // dial an in-memory network address; Val is the connection's id (ValNone: refused)
	KindNetAccept     // accept a connection; Val is its id (ValNone: listener closed)
	KindNetRead       // read from an in-memory connection (ValClosed: end of stream)
	KindNetWrite      // write to an in-memory connection
	KindNetClose      // close an in-memory connection or listener

	// Plain memory of rewritten code (package rt): a variable, field, element
	// or map that goroutines may share. Res is the location (one per address;
	// a map is one location). These steps carry no happens-before edge: two
	// of them by different tasks, one a write, unordered by the edges of the
	// other kinds, are a data race.
	KindMemRead  // read plain memory (a read)
	KindMemWrite // write plain memory
	kindCount
)

var kindNames = [...]string{
	KindInvalid:    "invalid",
	KindStart:      "start",
	KindExit:       "exit",
	KindSpawn:      "spawn",
	KindSend:       "send",
	KindRecv:       "recv",
	KindTimer:      "timer",
	KindSleep:      "sleep",
	KindChoose:     "choose",
	KindCrash:      "crash",
	KindRestart:    "restart",
	KindRegister:   "register",
	KindUnregister: "unregister",
	KindWhereis:    "whereis",
	KindWatch:      "watch",
	KindUnwatch:    "unwatch",
	KindLink:       "link",
	KindUnlink:     "unlink",
	KindKill:       "kill",
	KindClock:      "clock",
	KindYield:      "yield",
	KindNode:       "node",
	KindCancel:     "cancel",
	KindDeliver:    "deliver",
	KindPartition:  "partition",
	KindHeal:       "heal",
	KindDiskWrite:  "disk-write",
	KindDiskSync:   "disk-sync",
	KindDiskRead:   "disk-read",

	KindChanSend:      "chan-send",
	KindChanRecv:      "chan-recv",
	KindChanClose:     "chan-close",
	KindChanLen:       "chan-len",
	KindSelect:        "select",
	KindLock:          "lock",
	KindUnlock:        "unlock",
	KindRLock:         "rlock",
	KindRUnlock:       "runlock",
	KindTryLock:       "trylock",
	KindWGAdd:         "wg-add",
	KindWGWait:        "wg-wait",
	KindOnce:          "once",
	KindCondWait:      "cond-wait",
	KindCondSignal:    "cond-signal",
	KindCondBroadcast: "cond-broadcast",
	KindLoad:          "load",
	KindStore:         "store",
	KindSwap:          "swap",
	KindCAS:           "cas",
	KindAdd:           "add",
	KindTimerFire:     "timer-fire",
	KindNetListen:     "net-listen",
	KindNetDial:       "net-dial",
	KindNetAccept:     "net-accept",
	KindNetRead:       "net-read",
	KindNetWrite:      "net-write",
	KindNetClose:      "net-close",
	KindMemRead:       "read",
	KindMemWrite:      "write",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + itoa(int(k)) + ")"
}

// legacyKinds are names that traces written by earlier versions use for
// kinds since renamed.
var legacyKinds = map[string]Kind{"monitor": KindWatch, "demonitor": KindUnwatch}

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, bool) {
	if k, ok := legacyKinds[s]; ok {
		return k, true
	}
	for k, n := range kindNames {
		if n == s && Kind(k) != KindInvalid {
			return Kind(k), true
		}
	}
	return KindInvalid, false
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
