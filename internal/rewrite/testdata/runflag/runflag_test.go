// Package runflag: a TestMain that reads the -test.run argument from
// os.Args to decide what to set up (a cluster only for the examples), as
// go test passes it to the test binary: one argument, -test.run=REGEXP.
package runflag

import (
	"os"
	"strings"
	"testing"
)

var selected string

func TestMain(m *testing.M) {
	for _, arg := range os.Args {
		if r, ok := strings.CutPrefix(arg, "-test.run="); ok {
			selected = r
		}
	}
	os.Exit(m.Run())
}

func TestSeesRunFlag(t *testing.T) {
	if selected == "" {
		t.Fatalf("TestMain found no -test.run= argument among %q", os.Args[1:])
	}
}
