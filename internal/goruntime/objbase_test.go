package goruntime

import (
	"testing"
	"unsafe"
)

type objBaseProbe struct {
	a, b int64
	c    [5]int32
	d    *int
}

var objBaseGlobal objBaseProbe

// TestObjectBase is the canary of the runtime's findObject: a field, an
// element and the first byte of a heap object give the object's start;
// a package variable gives nil.
func TestObjectBase(t *testing.T) {
	o := new(objBaseProbe)
	s := make([]int64, 3000) // a large object, a span of its own
	small := make([]byte, 24)
	for _, c := range []struct {
		what string
		p    unsafe.Pointer
		want unsafe.Pointer
	}{
		{"a struct's first field", unsafe.Pointer(&o.a), unsafe.Pointer(o)},
		{"a struct's later field", unsafe.Pointer(&o.b), unsafe.Pointer(o)},
		{"an element of a struct's array", unsafe.Pointer(&o.c[3]), unsafe.Pointer(o)},
		{"a slice's first element", unsafe.Pointer(&s[0]), unsafe.Pointer(&s[0])},
		{"a large slice's element", unsafe.Pointer(&s[2999]), unsafe.Pointer(&s[0])},
		{"a small slice's byte", unsafe.Pointer(&small[17]), unsafe.Pointer(&small[0])},
		{"a package variable", unsafe.Pointer(&objBaseGlobal.b), nil},
	} {
		if got := ObjectBase(c.p); got != c.want {
			t.Errorf("ObjectBase(%s) = %p, want %p: the runtime's findObject changed", c.what, got, c.want)
		}
	}
}
