package finding

import (
	"fmt"
	"testing"
)

func TestSum(t *testing.T) {
	in := make(chan int)
	go func() {
		in <- 1
		in <- 2
		close(in)
	}()
	if got := Sum(in); got != 3 {
		t.Error(fmt.Sprintf("sum %d", "three"))
	}
}
