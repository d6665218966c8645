//go:build !race

package morpheus_test

const raceEnabled = false
