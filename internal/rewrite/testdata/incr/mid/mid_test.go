package mid_test

import (
	"testing"

	"example.com/incr/mid"
)

func TestBump(t *testing.T) {
	<-mid.Bump()
}
