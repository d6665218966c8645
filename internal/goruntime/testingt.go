package goruntime

import (
	"reflect"
	"sync"
	"testing"
	"unsafe"
)

// ClearFailed clears t's failed mark, which testing never clears (counting
// mode runs every schedule with the same t, and a schedule must fail only
// by its own t.Error). The mark is the field failed of testing's common,
// under its mutex mu; if testing has changed and they are not there,
// ClearFailed panics rather than count wrong.
func ClearFailed(t *testing.T) {
	v := reflect.ValueOf(t).Elem()
	failed, mu := v.FieldByName("failed"), v.FieldByName("mu")
	if !failed.IsValid() || failed.Kind() != reflect.Bool || !mu.IsValid() || mu.Type() != reflect.TypeFor[sync.RWMutex]() {
		panic("morpheus: counting mode cannot clear a testing.T's failed mark in this version of Go")
	}
	m := (*sync.RWMutex)(unsafe.Pointer(mu.UnsafeAddr()))
	m.Lock()
	*(*bool)(unsafe.Pointer(failed.UnsafeAddr())) = false
	m.Unlock()
}
