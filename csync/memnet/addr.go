package memnet

// Addr is the address of an endpoint: the listener's address for the
// listening side of a connection, "client:N" for a dialer's side (N numbers
// the connections of the iteration).
type Addr string

// Network returns "memnet".
func (Addr) Network() string { return "memnet" }

func (a Addr) String() string { return string(a) }
