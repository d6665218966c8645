#include "textflag.h"

// The sign bit of every 32-bit lane: SSE2 compares signed, so both sides
// flip it to compare unsigned.
DATA joinSigns<>+0(SB)/8, $0x8000000080000000
DATA joinSigns<>+8(SB)/8, $0x8000000080000000
GLOBL joinSigns<>(SB), RODATA|NOPTR, $16

// func joinAVX2(a, b *uint32, n int)
TEXT ·joinAVX2(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	SUBQ $8, CX
	JL   avxTail

avxLoop: // 8 entries
	VMOVDQU (SI), Y0
	VPMAXUD (DI), Y0, Y0
	VMOVDQU Y0, (SI)
	VMOVDQU Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JGE     avxLoop
	VZEROUPPER

avxTail:
	ADDQ $8, CX
	JEQ  avxDone

avxTailLoop: // the entries left, one at a time
	MOVL    (SI), AX
	MOVL    (DI), BX
	CMPL    AX, BX
	CMOVLCS BX, AX
	MOVL    AX, (SI)
	MOVL    AX, (DI)
	ADDQ    $4, SI
	ADDQ    $4, DI
	DECQ    CX
	JNE     avxTailLoop

avxDone:
	RET

// func joinSSE2(a, b *uint32, n int)
TEXT ·joinSSE2(SB), NOSPLIT, $0-24
	MOVQ  a+0(FP), SI
	MOVQ  b+8(FP), DI
	MOVQ  n+16(FP), CX
	MOVOU joinSigns<>(SB), X7
	SUBQ  $4, CX
	JL    sseTail

sseLoop: // 4 entries: max = b ^ ((a ^ b) & (a > b))
	MOVOU   (SI), X0
	MOVOU   (DI), X1
	MOVO    X0, X2
	PXOR    X7, X2
	MOVO    X1, X3
	PXOR    X7, X3
	PCMPGTL X3, X2
	PXOR    X1, X0
	PAND    X2, X0
	PXOR    X1, X0
	MOVOU   X0, (SI)
	MOVOU   X0, (DI)
	ADDQ    $16, SI
	ADDQ    $16, DI
	SUBQ    $4, CX
	JGE     sseLoop

sseTail:
	ADDQ $4, CX
	JEQ  done

tailLoop: // the entries left, one at a time
	MOVL    (SI), AX
	MOVL    (DI), BX
	CMPL    AX, BX
	CMOVLCS BX, AX
	MOVL    AX, (SI)
	MOVL    AX, (DI)
	ADDQ    $4, SI
	ADDQ    $4, DI
	DECQ    CX
	JNE     tailLoop

done:
	RET

// func cpuid(eax, ecx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eax+0(FP), AX
	MOVL ecx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv() (lo, hi uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, lo+0(FP)
	MOVL DX, hi+4(FP)
	RET

// func joinIntoAVX2(a, b *uint32, n int)
TEXT ·joinIntoAVX2(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	SUBQ $8, CX
	JL   intoAVXTail

intoAVXLoop: // 8 entries
	VMOVDQU (SI), Y0
	VPMAXUD (DI), Y0, Y0
	VMOVDQU Y0, (SI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JGE     intoAVXLoop
	VZEROUPPER

intoAVXTail:
	ADDQ $8, CX
	JEQ  intoAVXDone

intoAVXTailLoop: // the entries left, one at a time
	MOVL    (SI), AX
	MOVL    (DI), BX
	CMPL    AX, BX
	CMOVLCS BX, AX
	MOVL    AX, (SI)
	ADDQ    $4, SI
	ADDQ    $4, DI
	DECQ    CX
	JNE     intoAVXTailLoop

intoAVXDone:
	RET

// func joinIntoSSE2(a, b *uint32, n int)
TEXT ·joinIntoSSE2(SB), NOSPLIT, $0-24
	MOVQ  a+0(FP), SI
	MOVQ  b+8(FP), DI
	MOVQ  n+16(FP), CX
	MOVOU joinSigns<>(SB), X7
	SUBQ  $4, CX
	JL    intoSSETail

intoSSELoop: // 4 entries, as in joinSSE2
	MOVOU   (SI), X0
	MOVOU   (DI), X1
	MOVO    X0, X2
	PXOR    X7, X2
	MOVO    X1, X3
	PXOR    X7, X3
	PCMPGTL X3, X2
	PXOR    X1, X0
	PAND    X2, X0
	PXOR    X1, X0
	MOVOU   X0, (SI)
	ADDQ    $16, SI
	ADDQ    $16, DI
	SUBQ    $4, CX
	JGE     intoSSELoop

intoSSETail:
	ADDQ $4, CX
	JEQ  intoSSEDone

intoSSETailLoop: // the entries left, one at a time
	MOVL    (SI), AX
	MOVL    (DI), BX
	CMPL    AX, BX
	CMOVLCS BX, AX
	MOVL    AX, (SI)
	ADDQ    $4, SI
	ADDQ    $4, DI
	DECQ    CX
	JNE     intoSSETailLoop

intoSSEDone:
	RET
