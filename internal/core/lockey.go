package core

import (
	"runtime"
	"strconv"
	"sync"
)

// Code locations have two forms. In traces they are program counters: free
// to capture, exact, but meaningful only inside one process. Conflict
// analysis keys what it learns by location across runs, workers and machines,
// so it needs a key that survives recompilation and checkouts in other
// directories: LocKey hashes "function:line" (the package-qualified function
// name and the line), and LocText gives that text back.

type locEntry struct {
	key  uint64
	text string
}

var (
	locByPC  sync.Map // uintptr -> locEntry
	locByKey sync.Map // uint64 -> string
)

// LocKey returns the stable key of the code location pc.
func LocKey(pc uintptr) uint64 {
	if pc == 0 {
		return 0
	}
	if key, ok := cachedLocKey(pc); ok {
		return key
	}
	if e, ok := locByPC.Load(pc); ok {
		key := e.(locEntry).key
		cacheLocKey(pc, key)
		return key
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	text := f.Function + ":" + strconv.Itoa(f.Line)
	key := TextKey(text)
	locByPC.Store(pc, locEntry{key: key, text: text})
	locByKey.Store(key, text)
	cacheLocKey(pc, key)
	return key
}

// TextKey returns the key of a location text as LocText returns it.
func TextKey(text string) uint64 { return hashString(0x6c6f63, text) }

// noLoc is the text of key 0: ops the runtime itself schedules (a task's
// start and exit) have no code location.
const noLoc = "-"

// LocText returns the text of a key made by LocKey in this process, or "".
func LocText(key uint64) string {
	if key == 0 {
		return noLoc
	}
	if s, ok := locByKey.Load(key); ok {
		return s.(string)
	}
	return ""
}

// KeyOfText returns the key of a location text read from a file, and
// remembers the text so LocText can give it back.
func KeyOfText(text string) uint64 {
	if text == noLoc {
		return 0
	}
	key := TextKey(text)
	locByKey.LoadOrStore(key, text)
	return key
}
