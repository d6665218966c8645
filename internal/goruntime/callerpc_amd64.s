#include "textflag.h"

// func CallerPC() uintptr
//
// A leaf without a frame: BP is still the frame pointer of the Go function
// that called CallerPC, and 8(BP) is that function's return address.
TEXT ·CallerPC(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ 8(BP), AX
	MOVQ AX, ret+0(FP)
	RET
