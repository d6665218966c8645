#include "textflag.h"

// func GoroutineKey() uint64
//
// Returns the running goroutine's g pointer, read from thread-local storage:
// a key that identifies the goroutine while it lives.
TEXT ·GoroutineKey(SB),NOSPLIT,$0-8
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET

// func gWord(off uintptr) uint64
//
// Returns the 8-byte word at offset off in the running goroutine's g.
TEXT ·gWord(SB),NOSPLIT,$0-16
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ off+0(FP), BX
	MOVQ (AX)(BX*1), AX
	MOVQ AX, ret+8(FP)
	RET
