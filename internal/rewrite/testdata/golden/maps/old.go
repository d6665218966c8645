//go:build go1.21

package maps

// Old ranges over maps in a file of go1.21, before range-over-func: the
// loops become three-clause ones over the seed's order, on their lines.
func Old(p Peers, byIndex map[uint64]float64, m map[float64]string, shared map[int]int) (n int) {
	for id, v := range p {
		n += len(id) + *v
	}
	for k := range byIndex {
		n += int(k)
	}
	for _, v := range byIndex {
		n += int(v)
	}
	var k float64
	var s string
	for k, s = range m {
		n += int(k) + len(s)
	}
	for k = range m {
		n += int(k)
	}
	for range m {
		n++
	}
	done := make(chan int)
outer:
	for k, v := range shared {
		for range m {
			if v < 0 {
				continue outer
			}
		}
		go func() { done <- k + v }()
		n += <-done
	}
	return n
}
