#include "textflag.h"

// func CallerPC() uintptr
//
// A leaf without a frame: R29 is still the frame pointer of the Go function
// that called CallerPC, which points at the caller's saved frame pointer
// with that function's saved return address (its LR) one word above it,
// 8(R29), as on amd64.
TEXT ·CallerPC(SB),NOSPLIT|NOFRAME,$0-8
	MOVD 8(R29), R0
	MOVD R0, ret+0(FP)
	RET
