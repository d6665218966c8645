package rt

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Whole values. A load or a store of a struct or an array as a whole (v :=
// *p, the receiver a value method copies, *p = T{}, s.cfg = c) reads or
// writes every field and element of it, as Go's race detector checks the
// range of bytes. A location is an address (mem.go), so the access's own
// location is its first field's only; the rewriter writes such loads and
// stores as ReadValue and WriteValue, which access the locations of the
// further fields and elements too (the value's parts): a copy of a struct
// races with a write of any of its fields, and a store of a whole struct
// with a read of any of them, unordered.
//
// The access is one op on the value's address, a step like any other (no
// step only where the task owns the value and every part of it: owned.go);
// its parts are noted for the detector at that step (core.Run.AccessOwned),
// and a part another task has accessed makes the value shared, so that the
// access stays a step. Fields of synchronisation types (the mutexes and
// groups rt stands in for sync's, and sync's) are no parts: their
// operations are ops of their own; sync/atomic's values are, as a plain
// copy of one races with an atomic operation on it. A
// value with more than maxParts fields and elements, flattened, is checked
// at its first maxParts.

// maxParts bounds the parts of a value an access checks: a copy of a large
// array is checked at its first elements.
const maxParts = 64

// ReadValue is the load of the whole struct or array *p: a read op on p's
// location and a read of each of its parts. It returns p.
//
//go:noinline
func ReadValue[T any](p *T, name string) *T {
	if t := core.CurrentTask(); t != nil && p != nil {
		accessValue(t, unsafe.Pointer(p), partsOf(reflect.TypeFor[T]()), false, name, goruntime.CallerPC())
	}
	return p
}

// WriteValue is the store of the whole struct or array *p: a write op on
// p's location and a write of each of its parts. It returns p.
//
//go:noinline
func WriteValue[T any](p *T, name string) *T {
	if t := core.CurrentTask(); t != nil && p != nil {
		accessValue(t, unsafe.Pointer(p), partsOf(reflect.TypeFor[T]()), true, name, goruntime.CallerPC())
	}
	return p
}

// part is a field or an element of a value other than its first: its
// offset from the value's address, and the suffix that names it after the
// value's expression (".n", "[2]", ".buf[1]").
type part struct {
	off    uintptr
	suffix string
}

// parts caches partsOf's answer per type.
var parts sync.Map // reflect.Type -> []part

// partsOf returns the parts of a value of type typ: its fields and
// elements, flattened to those of no struct or array type, but for the one
// at its address, those of size zero and those of synchronisation types.
func partsOf(typ reflect.Type) []part {
	if ps, ok := parts.Load(typ); ok {
		return ps.([]part)
	}
	var ps []part
	flatten(typ, 0, "", &ps)
	if ps == nil {
		ps = []part{}
	}
	parts.Store(typ, ps)
	return ps
}

func flatten(typ reflect.Type, off uintptr, suffix string, ps *[]part) {
	if len(*ps) == maxParts || typ.Size() == 0 || syncPkg(typ.PkgPath()) {
		return
	}
	switch typ.Kind() {
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			flatten(f.Type, off+f.Offset, suffix+"."+f.Name, ps)
		}
	case reflect.Array:
		for i := range typ.Len() {
			flatten(typ.Elem(), off+uintptr(i)*typ.Elem().Size(), suffix+"["+strconv.Itoa(i)+"]", ps)
		}
	default:
		if off != 0 {
			*ps = append(*ps, part{off: off, suffix: suffix})
		}
	}
}

// syncPkg reports whether a type of package path is a synchronisation
// type whose operations are ops of their own: morpheus's (a rewritten
// mutex is csync's) and package sync's.
func syncPkg(path string) bool {
	const mod = "github.com/morpheus-go/morpheus/"
	return path == "sync" || path == mod+"rt" || path == mod+"csync" || strings.HasPrefix(path, mod+"internal/")
}

// partName names a part's location: the value's expression and the
// part's suffix; a pointer's value (*p) is named as Go selects through
// it (p.n).
func partName(name, suffix string) string {
	if strings.HasPrefix(name, "*") {
		if strings.HasPrefix(name, "**") {
			return "(" + name + ")" + suffix
		}
		return name[1:] + suffix
	}
	return name + suffix
}
