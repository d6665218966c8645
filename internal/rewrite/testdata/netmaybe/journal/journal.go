// Package journal dials a log socket in its init, as go-systemd's journal
// does, in every binary that imports it: that is no listen or dial of the
// importing package's init or TestMain, and keeps its tests under control.
package journal

import "net"

var conn net.Conn

func init() {
	var err error
	if conn, err = net.Dial("unixgram", "/nonexistent/netmaybe/journal.socket"); err != nil {
		conn = nil
	}
}

// Enabled reports whether the socket was there.
func Enabled() bool { return conn != nil }
