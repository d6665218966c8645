package core

import (
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// mix is SplitMix64's finalizer: a cheap, well-spread 64-bit hash step.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hashString folds s into h (FNV-1a, then mixed).
func hashString(h uint64, s string) uint64 {
	h ^= 0xcbf29ce484222325
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return mix(h)
}

// NameKey returns the stable identity of a task named by the user.
func NameKey(parts ...string) uint64 {
	var h uint64
	for _, p := range parts {
		h = hashString(h, p)
	}
	return h
}

// Mix exposes mix for the layers above (seed derivation).
func Mix(x uint64) uint64 { return mix(x) }

func durationOf(ns int64) time.Duration { return time.Duration(ns) }

// Where returns "file.go:line" for a program counter, or "?".
func Where(pc uintptr) string {
	if pc == 0 {
		return "?"
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if f.File == "" {
		return "?"
	}
	return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
}
