package setter

import (
	"os"
	"testing"
)

func TestSet(t *testing.T) {
	os.Args = os.Args[:1] // a variable of the standard library that base reads
	Set(2)
}
