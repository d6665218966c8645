// Package oldprintf calls printf-like functions with a format that is not
// a constant: go vet reports that from go1.24 on, and this module says
// go 1.23, so go test builds it.
package oldprintf

import "fmt"

// Line formats a line whose format the caller gives.
func Line(format string) string {
	done := make(chan string, 1)
	go func() { done <- fmt.Sprintf(format) }()
	return <-done
}
