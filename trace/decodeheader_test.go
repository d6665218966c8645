package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// DecodeHeader reads the header and stops at the first task line: what
// follows is never read, however long or malformed.
func TestDecodeHeader(t *testing.T) {
	head := "morpheus-trace 1\ntest TestX\nseed 7\niteration 2\noptions epoch=2030-06-01T12:00:00Z maxsteps=10\n" +
		"failure assertion task=0 step=1 msg=\"boom\"\ntask 0 parent=-1 key=0x1 name=\"main\"\n"
	r := io.MultiReader(strings.NewReader(head), failingReader{})
	h, err := DecodeHeader(r, "x")
	if err != nil {
		t.Fatal(err)
	}
	if h.Test != "TestX" || h.Seed != 7 || h.Iteration != 2 || h.Options["epoch"] != "2030-06-01T12:00:00Z" ||
		h.Failure == nil || h.Failure.Message != "boom" || h.Version != FormatVersion {
		t.Fatalf("header %+v", h)
	}
	for _, bad := range []string{"", "morpheus-trace 1\ntest TestX\n", "morpheus-trace 1\nseed 7\n"} {
		if _, err := DecodeHeader(strings.NewReader(bad), "bad"); err == nil {
			t.Errorf("DecodeHeader(%q) took it", bad)
		}
	}
}

// failingReader fails every read: DecodeHeader must not reach it.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("read past the header") }
