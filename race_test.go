//go:build race

package morpheus_test

// raceEnabled: the tests run under Go's race detector, which makes
// goroutine-heavy tests tens of times slower (see TestNoLeaks).
const raceEnabled = true
