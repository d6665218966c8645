package raft

import (
	"fmt"

	etcdraft "go.etcd.io/raft/v3"
)

// quietLogger silences raft's logging: thousands of iterations would flood
// the output. Fatal and Panic still panic, which fails the iteration with
// raft's message.
type quietLogger struct{}

var _ etcdraft.Logger = quietLogger{}

func (quietLogger) Debug(...any)            {}
func (quietLogger) Debugf(string, ...any)   {}
func (quietLogger) Error(...any)            {}
func (quietLogger) Errorf(string, ...any)   {}
func (quietLogger) Info(...any)             {}
func (quietLogger) Infof(string, ...any)    {}
func (quietLogger) Warning(...any)          {}
func (quietLogger) Warningf(string, ...any) {}
func (quietLogger) Fatal(v ...any)          { panic("raft: " + fmt.Sprint(v...)) }
func (quietLogger) Fatalf(f string, v ...any) {
	panic("raft: " + fmt.Sprintf(f, v...))
}
func (quietLogger) Panic(v ...any) { panic("raft: " + fmt.Sprint(v...)) }
func (quietLogger) Panicf(f string, v ...any) {
	panic("raft: " + fmt.Sprintf(f, v...))
}
