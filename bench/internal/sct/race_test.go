//go:build race

package sct

const raceEnabled = true
