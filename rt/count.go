package rt

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"unsafe"
)

// counting reports whether Test runs in counting mode (EnvCount); never
// while replaying.
func counting(replay string) (bool, error) {
	s := getenv(EnvCount)
	if s == "" || replay != "" {
		return false, nil
	}
	on, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", EnvCount, s)
	}
	return on, nil
}

// scheduleCount is the number of schedules EnvSchedules asks for of this
// process, its shard's share of them (options has checked both).
func scheduleCount() int {
	n := DefaultSchedules
	if v, err := strconv.Atoi(getenv(EnvSchedules)); err == nil {
		n = v
	}
	k, m, _ := processShard()
	return shardShare(n, k, m)
}

// clearFailed clears t's failed mark, which testing never clears: in
// counting mode every schedule runs the body with the same t, and a
// schedule must fail only by its own t.Error. The mark is the field failed
// of testing's common, under its mutex mu; if testing has changed and they
// are not there, clearFailed panics rather than count wrong.
func clearFailed(t *testing.T) {
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
