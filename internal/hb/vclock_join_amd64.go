package hb

// joinBoth makes a and b, which are equally long, both their join: 8
// entries an instruction with AVX2 where the processor and the operating
// system support it, else 4 with SSE2 (every amd64 processor has it).
func joinBoth(a, b VC) {
	if len(a) == 0 {
		return
	}
	b = b[:len(a)] // the kernels trust the lengths
	if hasAVX2 {
		joinAVX2(&a[0], &b[0], len(a))
	} else {
		joinSSE2(&a[0], &b[0], len(a))
	}
}

// joinInto makes a, which is no longer than b, its join with b.
func joinInto(a, b VC) {
	if len(a) == 0 {
		return
	}
	b = b[:len(a)]
	if hasAVX2 {
		joinIntoAVX2(&a[0], &b[0], len(a))
	} else {
		joinIntoSSE2(&a[0], &b[0], len(a))
	}
}

// joinAVX2 and joinSSE2 make the n entries at a and at b their entry-wise
// maximum (unsigned), in both; joinIntoAVX2 and joinIntoSSE2 in a only.
//
//go:noescape
func joinAVX2(a, b *uint32, n int)

//go:noescape
func joinSSE2(a, b *uint32, n int)

//go:noescape
func joinIntoAVX2(a, b *uint32, n int)

//go:noescape
func joinIntoSSE2(a, b *uint32, n int)

// hasAVX2 reports whether joinAVX2 may run: the processor has AVX2 and the
// operating system saves the vector registers it uses (XCR0's SSE and AVX
// state bits).
var hasAVX2 = func() bool {
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}()

// cpuid runs the CPUID instruction for leaf eax, subleaf ecx.
func cpuid(eax, ecx uint32) (a, b, c, d uint32)

// xgetbv returns extended control register 0 (the state the operating
// system saves), low and high halves.
func xgetbv() (lo, hi uint32)
