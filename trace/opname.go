package trace

// Op names for humans. A kind stands for every operation of the code that
// has its semantics: a WaitGroup's Done is a wg-add of -1, and a rewritten
// sync/atomic call or sync.Map method is a load (a read) or a swap (a
// write) of a shadow variable. A trace file keeps the kind (its names are
// the format); what a human reads (Render, reports, the console) is the
// operation the code wrote, from the kind and the step's Val.

// PointOp is the operation of the code that a KindLoad or KindSwap step of
// rewritten code stands for, kept in the step's Val: a sync/atomic call, a
// sync.Map method or a sync.Pool's Get or Put. Val 0 is a csync.Var's own Load or Swap, as in the
// traces written before steps carried it. Only add values at the end.
type PointOp int64

const (
	PointAtomicLoad PointOp = iota + 1
	PointAtomicStore
	PointAtomicSwap
	PointAtomicCAS
	PointAtomicAdd
	PointAtomicAnd
	PointAtomicOr
	PointMapLoad
	PointMapStore
	PointMapLoadOrStore
	PointMapLoadAndDelete
	PointMapDelete
	PointMapSwap
	PointMapCAS
	PointMapCAD
	PointMapRange
	PointMapClear
	PointPoolGet
	PointPoolPut
	pointOpCount
)

var pointOpNames = [...]string{
	PointAtomicLoad:       "atomic-load",
	PointAtomicStore:      "atomic-store",
	PointAtomicSwap:       "atomic-swap",
	PointAtomicCAS:        "atomic-cas",
	PointAtomicAdd:        "atomic-add",
	PointAtomicAnd:        "atomic-and",
	PointAtomicOr:         "atomic-or",
	PointMapLoad:          "syncmap-load",
	PointMapStore:         "syncmap-store",
	PointMapLoadOrStore:   "syncmap-load-or-store",
	PointMapLoadAndDelete: "syncmap-load-and-delete",
	PointMapDelete:        "syncmap-delete",
	PointMapSwap:          "syncmap-swap",
	PointMapCAS:           "syncmap-cas",
	PointMapCAD:           "syncmap-compare-and-delete",
	PointMapRange:         "syncmap-range",
	PointMapClear:         "syncmap-clear",
	PointPoolGet:          "pool-get",
	PointPoolPut:          "pool-put",
}

// String returns the op's name for humans ("atomic-add").
func (p PointOp) String() string {
	if p > 0 && p < pointOpCount {
		return pointOpNames[p]
	}
	return "point(" + itoa(int(p)) + ")"
}

// OpName returns the name of e's op for humans: the operation the code
// wrote where its kind stands for several (wg-done for a wg-add of -1,
// atomic-add or syncmap-store for a rewritten point), else the kind's name.
func (e *Event) OpName() string {
	switch e.Kind {
	case KindWGAdd:
		if e.Val == -1 {
			return "wg-done"
		}
	case KindLoad, KindSwap:
		if p := PointOp(e.Val); p > 0 && p < pointOpCount {
			return pointOpNames[p]
		}
	}
	return e.Kind.String()
}
