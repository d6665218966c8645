package goruntime

import (
	"runtime"
	"sync"
)

// goidOffset is where the runtime keeps a goroutine's id in its g, found
// once by calibration (findGoidOffset); 0 if not found.
var goidOffset = sync.OnceValue(findGoidOffset)

// Goid returns the calling goroutine's id: read from its g at the offset
// calibration found (a few nanoseconds), or parsed from its stack header
// (GoidFromStack, about a microsecond) if none was found.
func Goid() int64 {
	if off := goidOffset(); off != 0 {
		return int64(gWord(off))
	}
	return GoidFromStack()
}

// GoidFast reports whether Goid reads the id from g; false means every Goid
// parses a stack: where no g is read (neither amd64 nor arm64), or where
// calibration found no offset (a Go release changed g).
func GoidFast() bool { return goidOffset() != 0 }

// findGoidOffset looks for the word of g that holds the goroutine's id: an
// offset at which three goroutines' words equal their ids as the runtime
// prints them. The layout of g is the runtime's own; calibrating against
// the printed ids, instead of assuming it, keeps this right if it changes,
// and falls back to parsing when no offset fits.
func findGoidOffset() uintptr {
	if !readsG {
		return 0
	}
	const maxOff = 512 // g's id sits well within its first 512 bytes
	here := GoidFromStack()
	var cands []uintptr
	for off := uintptr(8); off < maxOff; off += 8 {
		if int64(gWord(off)) == here {
			cands = append(cands, off)
		}
	}
	for range 2 {
		ch := make(chan []uintptr)
		go func() {
			id := GoidFromStack()
			var keep []uintptr
			for _, off := range cands {
				if int64(gWord(off)) == id {
					keep = append(keep, off)
				}
			}
			ch <- keep
		}()
		cands = <-ch
	}
	if len(cands) != 1 {
		return 0
	}
	return cands[0]
}

// GoidFromStack returns the calling goroutine's id, parsed from its stack
// header ("goroutine 7 [running]:"): microseconds (the runtime formats a
// traceback), so callers that ask often use Goid. It returns 0 if the
// header is not in that form.
func GoidFromStack() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := buf[:n]
	const prefix = "goroutine "
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return 0
	}
	var id int64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
