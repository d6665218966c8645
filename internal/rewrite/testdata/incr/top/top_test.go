package top

import "testing"

func TestOnce(t *testing.T) {
	n := 0
	Once(func() { n++ })
	if n != 1 {
		t.Fatal(n)
	}
}
