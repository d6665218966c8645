#include "textflag.h"

// func goroutineKey() uint64
//
// Returns the running goroutine's g pointer, read from thread-local storage:
// a key that identifies the goroutine while it lives.
TEXT ·goroutineKey(SB),NOSPLIT,$0-8
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET
