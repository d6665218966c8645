package core

import "sync"

// goroutineKey identifies the calling goroutine (its g pointer) in about two
// nanoseconds.
func goroutineKey() uint64

// gWord returns the 8-byte word at offset off of the calling goroutine's g.
func gWord(off uintptr) uint64

// goidOffset is where the runtime keeps a goroutine's id in its g, found
// once by calibration (findGoidOffset); 0 if not found.
var goidOffset = sync.OnceValue(findGoidOffset)

// goid returns the calling goroutine's id: read from its g at the offset
// calibration found (a few nanoseconds), or parsed from its stack header
// (curGoid, microseconds) if none was found. Every new carrier asks once.
func goid() int64 {
	if off := goidOffset(); off != 0 {
		return int64(gWord(off))
	}
	return curGoid()
}

// findGoidOffset looks for the word of g that holds the goroutine's id: an
// offset at which three goroutines' words equal their ids as the runtime
// prints them. The layout of g is the runtime's own; calibrating against
// the printed ids, instead of assuming it, keeps this right if it changes,
// and falls back to parsing when no offset fits.
func findGoidOffset() uintptr {
	const maxOff = 512 // g's id sits well within its first 512 bytes
	here := curGoid()
	var cands []uintptr
	for off := uintptr(8); off < maxOff; off += 8 {
		if int64(gWord(off)) == here {
			cands = append(cands, off)
		}
	}
	for range 2 {
		ch := make(chan []uintptr)
		go func() {
			id := curGoid()
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
