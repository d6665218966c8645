package mem

import (
	"strings"
	"unsafe"
)

type Account struct {
	balance int
	owner   *Owner
	hist    []int
	last    [4]int
	tags    map[string]int
	ch      chan int
	notify  func(int)
	any     any
}

type Owner struct{ name string }

func (o Owner) Name() string     { return o.name }
func (o *Owner) Rename(n string) { o.name = n }

type point struct{ x, y int }

// Withdraw is a check-then-act on a field reached through a pointer: the
// check and the act are two ops.
func Withdraw(a *Account, n int) bool {
	if a.balance >= n {
		a.balance -= n
		return true
	}
	return false
}

// Safe keeps its short circuit: the load of a.owner happens only when a is
// not nil.
func Safe(a *Account) bool {
	return a != nil && a.owner != nil && a.owner.name != ""
}

// Elements: slices and pointees are shared, array and struct values
// follow their base, strings are immutable.
func Elements(a *Account, s []int, p *int, arr [3]int, pt point, str string) int {
	s[0] = s[1] + *p
	*p = 2
	a.hist[1]++
	a.last[2] = arr[0] + pt.x
	arr[1] = 5
	pt.y = 3
	s[0], s[1] = s[1], s[0]
	return int(str[0]) + len(a.hist) + cap(s) + len(a.last)
}

// Addresses: only the address is taken, nothing is loaded.
func Addresses(a *Account, o *Owner) (*int, *int, []int, *Account) {
	q := &a.balance
	r := &a.last[1]
	t := a.last[:]
	o.Rename("x")
	a.owner.Rename("y")
	return q, r, t, &Account{balance: a.balance}
}

// Methods: a value method copies its receiver; a method value too.
func Methods(a *Account, o Owner) (string, func() string) {
	n := a.owner.Name()
	f := a.owner.Name
	_ = o.Name()
	return n, f
}

// Values: a whole struct is one access, of each of its fields; fields holding channels,
// functions and interfaces are loaded like the others.
func Values(a *Account, dst *point, src point) {
	*dst = point{}
	*dst = src
	a.ch <- a.balance
	a.notify(<-a.ch)
	if s, ok := a.any.(string); ok {
		a.any = strings.ToUpper(s)
	}
	a.tags["x"] = 1
}

// Unsafe: nothing inside unsafe's calls is an op.
func Unsafe(a *Account) uintptr {
	return uintptr(unsafe.Pointer(&a.balance)) + unsafe.Sizeof(a.balance)
}

// Divide: a pointee after a slash does not open a comment.
func Divide(p *int, n int) int { return n / *p + n/(*p) }

// decoder reads bytes: next moves n.
type decoder struct {
	buf []byte
	n   int
	err error
}

func (d *decoder) next() byte { d.n++; return d.buf[d.n-1] }

// StoreOrder: x = f() stores after f's ops where f cannot move the target
// (d is a local pointer: d.err is stored last); an element whose index f
// changes keeps Go's order, the address first (d.buf[d.n] = d.next()
// stores at the old d.n).
func StoreOrder(d *decoder, e error) {
	d.err = d.check(e)
	d.buf[d.n] = d.next()
}

func (d *decoder) check(e error) error { return e }

// StoreOrderGoto: the temporary of x = f() lives in a block of its own, so
// that a goto may still jump over the statement to a label after it.
func StoreOrderGoto(d *decoder, errs []error) {
	for _, e := range errs {
		if e == nil {
			goto next
		}
		d.err = d.check(e)
	next:
		d.n++
	}
}

// StoreOrderResults: res, err = f() in goroutines stores both after f's
// ops (f may synchronise them: a semaphore held until the other releases);
// a blank target is left out.
func StoreOrderResults(d *decoder, es []error) {
	var (
		n   byte
		err error
	)
	done := make(chan bool)
	for _, e := range es {
		go func() {
			n, err = d.pair(e)
			_, err = d.pair(e)
			done <- true
		}()
	}
	<-done
	_, _ = n, err
}

func (d *decoder) pair(e error) (byte, error) { return 0, e }
