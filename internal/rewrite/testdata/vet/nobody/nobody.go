// Package nobody declares a function without a body and without the
// assembly that would define it: it type-checks, and the compiler rejects
// it, as go test reports.
package nobody

// Ping answers on the channel it returns.
func Ping() <-chan bool {
	c := make(chan bool, 1)
	c <- true
	return c
}

func missing()
