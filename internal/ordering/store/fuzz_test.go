package store

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecodeDelta: no panics, and what decodes re-encodes to something that
// decodes to the same delta.
func FuzzDecodeDelta(f *testing.F) {
	var b bytes.Buffer
	sampleDelta().Encode(&b)
	f.Add(b.String())
	f.Add(deltaHeader + "\nend\n")
	f.Add(deltaHeader + "\nrun 1 0 0 0 0 - -\nstderr 1 \"\\x\"\nend\n")
	f.Fuzz(func(t *testing.T, in string) {
		d, err := DecodeDelta(bytes.NewReader([]byte(in)), "f")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := d.Encode(&out); err != nil {
			t.Fatal(err)
		}
		again, err := DecodeDelta(&out, "again")
		if err != nil {
			t.Fatalf("re-encoded delta does not decode: %v\n%s", err, out.String())
		}
		if !reflect.DeepEqual(d, again) {
			t.Fatalf("round trip differs:\n%+v\n%+v", d, again)
		}
	})
}

// FuzzDecodeMeta: no panics; what decodes round-trips.
func FuzzDecodeMeta(f *testing.F) {
	var b bytes.Buffer
	sampleMeta().Encode(&b)
	f.Add(b.String())
	f.Add(metaHeader + "\nmode baseline\narg \"x\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := DecodeMeta(bytes.NewReader([]byte(in)), "f")
		if err != nil {
			return
		}
		var out bytes.Buffer
		m.Encode(&out)
		again, err := DecodeMeta(&out, "again")
		if err != nil || !reflect.DeepEqual(m, again) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, m, again)
		}
	})
}
