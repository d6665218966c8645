// Package quickstart is a small actor system and its morpheus tests, written
// as a user of morpheus writes them, against its public packages only: copy
// this folder into your module and run go test.
//
// A box office sells the tickets of one show through ticket windows. A buyer
// sends an Order to a window; the window asks the office for a ticket and
// answers the buyer with a Ticket or SoldOut. The office is the only one that
// knows how many tickets are left, and announces every sale (Sold), so that
// a monitor can check that no more tickets are sold than the show has.
//
// The bug: a window built with atomic false asks the office how many tickets
// are left (Query) and, seeing some, takes one (Take). Two windows can both
// see the last ticket before either takes it, and the show is oversold.
// Only schedules that interleave the two windows' requests show it;
// morpheus.Check finds one in its first iterations and prints it, step by
// step. With atomic true a window reserves a ticket in one request
// (Reserve), which the office grants or refuses, and the tests pass in every
// schedule.
package quickstart

import "github.com/morpheus-go/morpheus"

// Order is what a buyer sends a window.
type Order struct{ Buyer morpheus.PID }

// Ticket and SoldOut are a window's answers to an Order.
type (
	Ticket  struct{}
	SoldOut struct{}
)

// Requests to the office, each answered to From.
type (
	// Query asks how many tickets are left; the answer is Left.
	Query struct{ From morpheus.PID }
	// Take takes a ticket, whatever is left; the answer is Taken.
	Take struct{ From morpheus.PID }
	// Reserve takes a ticket if one is left; the answer is Reserved.
	Reserve struct{ From morpheus.PID }
)

// The office's answers.
type (
	Left     struct{ N int }
	Taken    struct{}
	Reserved struct{ OK bool }
)

// Sold is what the office announces for each ticket it hands out.
type Sold struct{ Left int }

// Office is the office's process: it starts with tickets tickets and
// serves requests for ever.
func Office(tickets int) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		left := tickets
		sell := func() {
			left--
			e.Announce(Sold{Left: left})
		}
		for {
			switch m := e.Receive(nil).(type) {
			case Query:
				e.Send(m.From, Left{N: left})
			case Take:
				sell()
				e.Send(m.From, Taken{})
			case Reserve:
				ok := left > 0
				if ok {
					sell()
				}
				e.Send(m.From, Reserved{OK: ok})
			}
		}
	}
}

// Window is a ticket window's process, which sells the office's tickets.
// With atomic false it checks and takes in two requests (the bug).
func Window(office morpheus.PID, atomic bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		for {
			o := morpheus.Recv[Order](e)
			if sold(e, office, atomic) {
				e.Send(o.Buyer, Ticket{})
			} else {
				e.Send(o.Buyer, SoldOut{})
			}
		}
	}
}

// sold gets a ticket from the office, if one is left.
func sold(e *morpheus.Env, office morpheus.PID, atomic bool) bool {
	if atomic {
		e.Send(office, Reserve{From: e.Self()})
		return morpheus.Recv[Reserved](e).OK
	}
	e.Send(office, Query{From: e.Self()})
	if morpheus.Recv[Left](e).N == 0 {
		return false
	}
	// Another window may take the last ticket between the answer above and
	// this request.
	e.Send(office, Take{From: e.Self()})
	morpheus.Recv[Taken](e)
	return true
}
