package rt

import (
	"reflect"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// lenOp is what a controlled channel of any element type offers ValueLen.
type lenOp interface {
	Len(pc uintptr) int
	Outside(what string, pc uintptr)
}

// ValueLen stands for v.Len() of a reflect.Value v. Of a channel that
// rewritten code made, it is len(ch) as Len gives it, the values in the
// controlled channel's buffer (the native channel holds only values sent
// outside control, which the controlled buffer takes over when a schedule
// first uses the channel); of anything else, reflect's.
//
//go:noinline
func ValueLen(v reflect.Value) int {
	if v.Kind() != reflect.Chan || v.IsNil() {
		return v.Len()
	}
	e, ok := table.Load(uintptr(v.UnsafePointer()))
	if !ok || e.(*entry).ch.Value() != (*byte)(v.UnsafePointer()) {
		return v.Len() // a foreign channel
	}
	c := e.(*entry).c.(lenOp)
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		c.Outside("len", pc)
		return v.Len()
	}
	return c.Len(pc)
}
