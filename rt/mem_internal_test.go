package rt

import (
	"runtime"
	"testing"
	"unsafe"
	"weak"
)

var (
	weakGlobal [4]int64
	weakSize   = 4096
)

// TestWeakObject: the locations of one object (a slice's elements, a
// struct's fields) hold it by one weak pointer, to its start, not one per
// address (each of which the runtime keeps in a list per span that every
// new weak pointer walks: a slice's n elements cost O(n²)); the weak
// pointer still sees the object collected; a package variable, outside the
// heap, gets a weak pointer of its own.
func TestWeakObject(t *testing.T) {
	s := make([]int64, weakSize) // a size not known at compile time: on the heap
	type rec struct {
		a int
		c [3]string
	}
	r := &rec{}
	a, b := weakObject(unsafe.Pointer(&s[5])), weakObject(unsafe.Pointer(&s[4000]))
	if a != b {
		t.Errorf("two elements of one slice got two weak pointers: each address gets a record of its own in the span")
	}
	if weakObject(unsafe.Pointer(&r.a)) != weakObject(unsafe.Pointer(&r.c[2])) {
		t.Errorf("two fields of one struct got two weak pointers")
	}
	if a.Value() == nil {
		t.Fatal("the weak pointer of a live slice is nil")
	}
	g := weakObject(unsafe.Pointer(&weakGlobal[2]))
	if g.Value() == nil {
		t.Errorf("the weak pointer of a package variable is nil")
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(r)
	s, r = nil, nil
	for range 3 {
		runtime.GC()
	}
	if a.Value() != nil {
		t.Errorf("the weak pointer of a collected slice is not nil: its locations would outlive it")
	}
}

// An atomic's shadow does not keep its object alive: the table holds the
// object weakly, and an address reused after it died gets a fresh shadow.
func TestShadowHoldsObjectWeakly(t *testing.T) {
	type counter struct {
		pad [7]int64
		n   int64
	}
	c := &counter{}
	s1, s2 := shadowOf(unsafe.Pointer(&c.n)), shadowOf(unsafe.Pointer(&c.n))
	if s1 != s2 {
		t.Fatal("one live word got two shadows")
	}
	if shadowOf(unsafe.Pointer(&c.pad[0])) == s1 {
		t.Fatal("two words of one object share a shadow")
	}
	w := weak.Make(c)
	k := uintptr(unsafe.Pointer(&c.n))
	runtime.KeepAlive(c)
	c = nil
	for range 3 {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("the object of a shadowed word is still alive: the shadow table keeps it")
	}
	e, ok := shadows.Load(k)
	if !ok {
		t.Fatal("the entry is gone")
	}
	if e.(*shadow).live() {
		t.Fatal("the entry of a collected object counts as live: a new object at its address would share its shadow")
	}
	g := shadowOf(unsafe.Pointer(&weakGlobal[1]))
	runtime.GC()
	if shadowOf(unsafe.Pointer(&weakGlobal[1])) != g {
		t.Fatal("a package variable's shadow changed")
	}
}
