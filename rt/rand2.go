package rt

import "math/rand/v2"

// math/rand/v2's global functions, drawn from the schedule's generator
// (see rand.go).

// Rand2Int stands for math/rand/v2.Int.
func Rand2Int() int {
	if r := v2(); r != nil {
		return r.Int()
	}
	return rand.Int()
}

// Rand2IntN stands for math/rand/v2.IntN.
func Rand2IntN(n int) int {
	if r := v2(); r != nil {
		return r.IntN(n)
	}
	return rand.IntN(n)
}

// Rand2Int32 stands for math/rand/v2.Int32.
func Rand2Int32() int32 {
	if r := v2(); r != nil {
		return r.Int32()
	}
	return rand.Int32()
}

// Rand2Int32N stands for math/rand/v2.Int32N.
func Rand2Int32N(n int32) int32 {
	if r := v2(); r != nil {
		return r.Int32N(n)
	}
	return rand.Int32N(n)
}

// Rand2Int64 stands for math/rand/v2.Int64.
func Rand2Int64() int64 {
	if r := v2(); r != nil {
		return r.Int64()
	}
	return rand.Int64()
}

// Rand2Int64N stands for math/rand/v2.Int64N.
func Rand2Int64N(n int64) int64 {
	if r := v2(); r != nil {
		return r.Int64N(n)
	}
	return rand.Int64N(n)
}

// Rand2Uint stands for math/rand/v2.Uint.
func Rand2Uint() uint {
	if r := v2(); r != nil {
		return r.Uint()
	}
	return rand.Uint()
}

// Rand2UintN stands for math/rand/v2.UintN.
func Rand2UintN(n uint) uint {
	if r := v2(); r != nil {
		return r.UintN(n)
	}
	return rand.UintN(n)
}

// Rand2Uint32 stands for math/rand/v2.Uint32.
func Rand2Uint32() uint32 {
	if r := v2(); r != nil {
		return r.Uint32()
	}
	return rand.Uint32()
}

// Rand2Uint32N stands for math/rand/v2.Uint32N.
func Rand2Uint32N(n uint32) uint32 {
	if r := v2(); r != nil {
		return r.Uint32N(n)
	}
	return rand.Uint32N(n)
}

// Rand2Uint64 stands for math/rand/v2.Uint64.
func Rand2Uint64() uint64 {
	if r := v2(); r != nil {
		return r.Uint64()
	}
	return rand.Uint64()
}

// Rand2Uint64N stands for math/rand/v2.Uint64N.
func Rand2Uint64N(n uint64) uint64 {
	if r := v2(); r != nil {
		return r.Uint64N(n)
	}
	return rand.Uint64N(n)
}

// Rand2Float32 stands for math/rand/v2.Float32.
func Rand2Float32() float32 {
	if r := v2(); r != nil {
		return r.Float32()
	}
	return rand.Float32()
}

// Rand2Float64 stands for math/rand/v2.Float64.
func Rand2Float64() float64 {
	if r := v2(); r != nil {
		return r.Float64()
	}
	return rand.Float64()
}

// Rand2ExpFloat64 stands for math/rand/v2.ExpFloat64.
func Rand2ExpFloat64() float64 {
	if r := v2(); r != nil {
		return r.ExpFloat64()
	}
	return rand.ExpFloat64()
}

// Rand2NormFloat64 stands for math/rand/v2.NormFloat64.
func Rand2NormFloat64() float64 {
	if r := v2(); r != nil {
		return r.NormFloat64()
	}
	return rand.NormFloat64()
}

// Rand2Perm stands for math/rand/v2.Perm.
func Rand2Perm(n int) []int {
	if r := v2(); r != nil {
		return r.Perm(n)
	}
	return rand.Perm(n)
}

// Rand2Shuffle stands for math/rand/v2.Shuffle.
func Rand2Shuffle(n int, swap func(i, j int)) {
	if r := v2(); r != nil {
		r.Shuffle(n, swap)
		return
	}
	rand.Shuffle(n, swap)
}

// intType is what math/rand/v2.N accepts.
type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Rand2N stands for math/rand/v2.N.
func Rand2N[Int intType](n Int) Int {
	if r := v2(); r != nil {
		if n <= 0 {
			panic("invalid argument to N")
		}
		return Int(r.Uint64N(uint64(n)))
	}
	return rand.N(n)
}
