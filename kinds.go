package morpheus

import "github.com/morpheus-go/morpheus/trace"

// Short names for the op kinds this package records.
const (
	kindSpawn      = trace.KindSpawn
	kindSend       = trace.KindSend
	kindRecv       = trace.KindRecv
	kindTimer      = trace.KindTimer
	kindSleep      = trace.KindSleep
	kindCrash      = trace.KindCrash
	kindRestart    = trace.KindRestart
	kindRegister   = trace.KindRegister
	kindUnregister = trace.KindUnregister
	kindWhereis    = trace.KindWhereis
	kindWatch      = trace.KindWatch
	kindUnwatch    = trace.KindUnwatch
	kindLink       = trace.KindLink
	kindUnlink     = trace.KindUnlink
	kindKill       = trace.KindKill
	kindYield      = trace.KindYield
	kindCancel     = trace.KindCancel
)
