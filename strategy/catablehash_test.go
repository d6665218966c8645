package strategy

import (
	"math/rand/v2"
	"testing"
)

// sigSet holds what a map would, through growth and probe chains: random
// signatures, and signatures that differ only in the task or only in the
// location (whose homes cluster if the hash mixes badly).
func TestSigSetMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h sigSet
	want := map[Sig]sigState{}
	for i := range 20000 {
		var s Sig
		switch i % 3 {
		case 0:
			s = Sig{Task: rng.Uint64(), Loc: rng.Uint64()}
		case 1:
			s = Sig{Task: 7, Loc: uint64(rng.IntN(3000))}
		default:
			s = Sig{Task: uint64(rng.IntN(3000)), Loc: 7}
		}
		st := sigSeen | sigState(rng.IntN(2))*sigConflicted
		h.add(s, st)
		want[s] |= st
	}
	if h.n != len(want) {
		t.Fatalf("%d entries, want %d", h.n, len(want))
	}
	for s, st := range want {
		if got := h.get(s); got != st {
			t.Fatalf("get(%v) = %d, want %d", s, got, st)
		}
	}
	if got := h.get(Sig{Task: 1 << 60, Loc: 1 << 60}); got != 0 {
		t.Errorf("an absent signature has state %d", got)
	}
	c := h.clone()
	c.add(Sig{Task: 1, Loc: 1 << 62}, sigSeen)
	if h.get(Sig{Task: 1, Loc: 1 << 62}) != 0 || c.n != h.n+1 {
		t.Error("a clone shares its entries with the original")
	}
	var empty sigSet
	if empty.get(Sig{}) != 0 || (&Table{}).Len() != 0 {
		t.Error("the zero sigSet is not empty")
	}
}

// Merging a table into a smaller one adds its entries in the order of its
// slots, the order of their hashes: growing step by step, the destination
// would hold at each size only the smallest hashes, in one run near its
// first slot that every add walks to its end. Merge makes room first: the
// destination's slots are allocated once.
func TestSigSetMergeMakesRoomFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	big := NewTable()
	for range 50000 {
		big.add(Sig{Task: rng.Uint64(), Loc: rng.Uint64()}, sigSeen)
	}
	var small *Table
	allocs := testing.AllocsPerRun(5, func() {
		small = NewTable()
		small.add(Sig{Task: 1, Loc: 1}, sigSeen) // 16 slots
		small.Merge(big)
	})
	if small.Len() != big.Len()+1 {
		t.Fatalf("merged %d entries, want %d", small.Len(), big.Len()+1)
	}
	if allocs > 3 { // the table, its first 16 slots, the slots for all
		t.Errorf("a merge into a small table allocated %.0f times: it grew step by step", allocs)
	}
}
