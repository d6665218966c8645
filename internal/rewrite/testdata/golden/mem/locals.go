package mem

import (
	"context"
	"errors"
	"sync"
)

type group struct{ wg sync.WaitGroup }

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); _ = f() }()
}

func fetch(ctx context.Context, i int) (int, error) { return i, ctx.Err() }

// Closures: a captured variable that is assigned is shared (first, err,
// total); one that never is stays plain (ctx, results, the WaitGroup, the
// loop variable, per iteration since go1.22).
func Closures(ctx context.Context, n int) (int, error) {
	var g group
	var err error
	results := make([]int, n)
	total := 0
	first := -1
	for i := range n {
		g.Go(func() error {
			v, e := fetch(ctx, i)
			if e != nil {
				err = e
				return e
			}
			results[i] = v
			total += v
			if first < 0 {
				first = i
			}
			return nil
		})
	}
	g.wg.Wait()
	x, err := fetch(ctx, total)
	if err != nil {
		return first, err
	}
	y, err := 0, errors.New("reset")
	return x + y + total, err
}

// Local: no closure, no address: plain.
func Local(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum
}

// Address: a variable whose address is taken is shared, even if never
// assigned: the pointer may write it.
func Address() int {
	var n int
	set(&n)
	var o Owner
	o.Rename("z")
	return n + len(o.name)
}

func set(p *int) { *p = 1 }

// Loops: the post statement's i++ does not make i shared (per-iteration);
// the body's j++ does.
func Loops(done chan<- int) {
	for i := 0; i < 3; i++ {
		go func() { done <- i }()
	}
	for j := 0; j < 3; j++ {
		go func() { done <- j }()
		j++
	}
}

// Swap: a multiple assignment of shared variables.
func Swap() (int, int) {
	a, b := 1, 2
	f := func() { a, b = b, a }
	f()
	return a, b
}

// Receive: comma-ok receives into shared variables, and a ranged assign.
func Receive(ch chan int) (v int, ok bool) {
	go func() { v, ok = <-ch }()
	for v = range ch {
	}
	select {
	case v, ok = <-ch:
	default:
	}
	return
}

// Named: a bare return reads the named results goroutines may share (n, set
// by a goroutine), not the others (quiet, the blank one); a function
// literal's bare return reads its own results.
func Named(ch chan int) (n int, _ error, quiet bool) {
	go func() { n = <-ch }()
	inner := func() (m int) {
		go func() { m = 1 }()
		return
	}
	inner()
	quiet = true
	return
}
