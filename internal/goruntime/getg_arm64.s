#include "textflag.h"

// func GoroutineKey() uint64
//
// Returns the running goroutine's g pointer, which arm64 keeps in R28 (g):
// a key that identifies the goroutine while it lives.
TEXT ·GoroutineKey(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET

// func gWord(off uintptr) uint64
//
// Returns the 8-byte word at offset off in the running goroutine's g.
TEXT ·gWord(SB),NOSPLIT,$0-16
	MOVD off+0(FP), R1
	MOVD g, R0
	ADD R1, R0, R0
	MOVD (R0), R0
	MOVD R0, ret+8(FP)
	RET
