package raft

import (
	"bytes"
	"testing"

	"github.com/morpheus-go/morpheus/linearize"
)

// DecodeCommand accepts exactly what encodeCommand writes (and JSON
// equivalent to it), never panics, and round-trips.
func FuzzDecodeCommand(f *testing.F) {
	f.Add(encodeCommand(Command{ID: ReqID{1, 2}, In: linearize.KVInput{Op: linearize.KVAppend, Key: "x", Value: "+1.2"}}))
	f.Add([]byte(`{"ID":{"Client":0,"N":0},"In":{"Op":9,"Key":"x"}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err != nil {
			if c != (Command{}) {
				t.Fatalf("error %v with a command %+v", err, c)
			}
			return
		}
		again, err := DecodeCommand(encodeCommand(c))
		if err != nil || again != c {
			t.Fatalf("round trip of %+v: %+v, %v", c, again, err)
		}
	})
}

// decodeMachine accepts the snapshots encode writes, never panics, and
// round-trips.
func FuzzDecodeMachine(f *testing.F) {
	m := newMachine()
	m.apply(Command{In: linearize.KVInput{Op: linearize.KVPut, Key: "x", Value: "1.0"}})
	f.Add(m.encode())
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"x":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeMachine(data)
		if err != nil {
			return
		}
		again, err := decodeMachine(m.encode())
		if err != nil || !bytes.Equal(again.encode(), m.encode()) || again.digest() != m.digest() {
			t.Fatalf("round trip of %q: %v", data, err)
		}
	})
}

func TestDecodeErrors(t *testing.T) {
	for data, want := range map[string]string{
		`not json`:                                     "raft entry: not a command: ",
		`{"In":{"Op":0,"Key":"x"}}`:                    "raft entry: operation KVOp(0) is not get, put or append",
		`{"In":{"Op":4,"Key":"x"}}`:                    "raft entry: operation cas is not get, put or append",
		`{"ID":{"Client":-1},"In":{"Op":1,"Key":"x"}}`: "raft entry: negative request id",
	} {
		if _, err := DecodeCommand([]byte(data)); err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte(want)) {
			t.Errorf("DecodeCommand(%s): %v, want %q", data, err, want)
		}
	}
	if _, err := decodeMachine([]byte(`[1]`)); err == nil || err.Error()[:39] != "raft snapshot: not a key-value state: j" {
		t.Errorf("decodeMachine([1]): %v", err)
	}
}
