package trace_test

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// errForm is the form of every format error.
var errForm = regexp.MustCompile(`^fuzz\.trace:[1-9][0-9]*: [a-z-]+: expected .+, got .*$`)

// FuzzDecode checks that Decode never panics, that its errors have the
// documented form, and that what it accepts Encode writes back in a form that
// decodes and encodes to the same text. The seed corpus is in
// testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.Decode(bytes.NewReader(data), "fuzz.trace")
		if err != nil {
			var fe *trace.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if !errForm.MatchString(err.Error()) {
				t.Fatalf("error %q does not have the form NAME:LINE: FIELD: expected WHAT, got TEXT", err)
			}
			return
		}
		var first bytes.Buffer
		if err := trace.Encode(&first, tr); err != nil {
			t.Fatalf("Encode of a decoded trace: %v", err)
		}
		tr2, err := trace.Decode(bytes.NewReader(first.Bytes()), "fuzz.trace")
		if err != nil {
			t.Fatalf("Decode of Encode's output: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := trace.Encode(&second, tr2); err != nil {
			t.Fatalf("second Encode: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("encoding not stable:\nfirst:\n%s\nsecond:\n%s", first.Bytes(), second.Bytes())
		}
		if err := trace.Render(io.Discard, tr, 0, -1); err != nil {
			t.Fatalf("Render: %v", err)
		}
		// The analyses shrinking and coverage run on traces read from files
		// must not panic on any trace Decode accepts.
		if order := hb.Linearize(tr); len(order) > len(tr.Events) {
			t.Fatalf("Linearize gave %d steps for %d events", len(order), len(tr.Events))
		}
		hb.PartialOrder(tr)
	})
}

// TestFuzzCorpus checks that the seed corpus means what its file names say:
// valid-* seeds decode and invalid-* seeds do not, so that the fuzzer starts
// from both sides of every check.
func TestFuzzCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/fuzz/FuzzDecode/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus: %v", err)
	}
	for _, file := range files {
		text := readTestdata(t, file)
		quoted, ok := strings.CutPrefix(text, "go test fuzz v1\n[]byte(")
		quoted, ok2 := strings.CutSuffix(quoted, ")\n")
		data, err := strconv.Unquote(quoted)
		if !ok || !ok2 || err != nil {
			t.Errorf("%s: not a go test fuzz v1 []byte file", file)
			continue
		}
		_, err = trace.Decode(strings.NewReader(data), "seed.trace")
		switch base := filepath.Base(file); {
		case strings.HasPrefix(base, "valid-") && err != nil:
			t.Errorf("%s: %v", file, err)
		case strings.HasPrefix(base, "invalid-") && err == nil:
			t.Errorf("%s: decoded without error", file)
		}
	}
}
