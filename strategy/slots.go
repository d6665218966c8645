package strategy

// grow returns s extended with fill values so that index i is valid. Per-task
// arrays grow this way, indexed by Op.Task, so that steady-state decisions do
// not allocate.
func grow[T any](s []T, i int32, fill T) []T {
	for int(i) >= len(s) {
		s = append(s, fill)
	}
	return s
}

// seedPair derives the two words of a PCG state from an iteration's seed, the
// same way for every strategy.
func seedPair(seed uint64) (uint64, uint64) { return seed, seed ^ 0x9e3779b97f4a7c15 }
