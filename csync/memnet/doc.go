// Package memnet is an in-memory network whose connections are controlled
// by morpheus: Listen, Dial and the net.Listener and net.Conn they return
// behave like TCP on one machine, and every Accept, Read, Write and Close is
// an op of the controlled scheduler. Code written against package net's
// interfaces (a server that takes a net.Listener, a client that takes a dial
// function) runs under morpheus unchanged.
//
// # Semantics
//
// Each iteration has its own network, empty at its start. Dial never waits:
// it fails with "connection refused" (errors.Is syscall.ECONNREFUSED) if
// nobody listens on the address, and otherwise queues the connection for
// the listener's Accept, as a TCP backlog would. A connection is two byte
// streams with unbounded buffers: Write never blocks, Read blocks until
// bytes arrive, the peer closes (io.EOF once the bytes before the close are
// read), the connection is closed on this side (net.ErrClosed), or the read
// deadline passes. Writing to a connection the peer closed fails with
// syscall.EPIPE.
//
// Deadlines are on the virtual clock (time.Time values from csync.Now's
// epoch, 2000-01-01 UTC unless morpheus.Epoch moves it): a Read past its deadline returns an error that
// satisfies errors.Is(err, os.ErrDeadlineExceeded) and whose Timeout method
// reports true, after exactly the virtual time the deadline allowed. Since
// the clock moves only when nothing else can run, a time-out never beats
// data that another task can still send.
//
// How the bytes of one Write are split among Reads depends only on the
// schedule: a Read returns what has been written and not yet read, up to
// its buffer's size.
//
// # Datagrams
//
// ListenPacket and DialPacket bind datagram endpoints (PacketConn, with the
// methods of *net.UDPConn): WriteTo sends one packet, never blocking;
// ReadFrom receives one with its sender's address, waiting for it, or
// fails at its deadline as Conn.Read does. Packets from one sender arrive
// in the order sent; a packet to an address nobody is bound to is dropped,
// as UDP drops it; a read with a shorter buffer gets the packet's first
// bytes. A connected endpoint (DialPacket) writes to its peer and hears
// only its peer.
//
// # Faults
//
// SetFaults makes connections late (bytes held in flight until a delivery
// step, later bytes queued behind them), broken (syscall.ECONNRESET on both
// sides) or refused at dial, each a controlled choice within a budget, as
// morpheus.Env.SetFaults does for actor messages.
package memnet
