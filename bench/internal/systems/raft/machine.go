package raft

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"github.com/morpheus-go/morpheus/linearize"
)

// ReqID identifies a client's operation: its client and its number.
type ReqID struct{ Client, N int }

// Command is what a raft entry carries: one client operation.
type Command struct {
	ID ReqID
	In linearize.KVInput
}

// encodeCommand returns a command as entry data.
func encodeCommand(c Command) []byte {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // a Command always marshals
	}
	return b
}

// DecodeCommand parses entry data written by the harness. It returns an
// error naming what is wrong: data that is not a command, or a command whose
// operation is not get, put or append.
func DecodeCommand(data []byte) (Command, error) {
	var c Command
	if err := json.Unmarshal(data, &c); err != nil {
		return Command{}, fmt.Errorf("raft entry: not a command: %v", err)
	}
	switch c.In.Op {
	case linearize.KVGet, linearize.KVPut, linearize.KVAppend:
	default:
		return Command{}, fmt.Errorf("raft entry: operation %v is not get, put or append", c.In.Op)
	}
	if c.ID.Client < 0 || c.ID.N < 0 {
		return Command{}, fmt.Errorf("raft entry: negative request id %+v", c.ID)
	}
	return c, nil
}

// machine is the replicated key-value store: the state every node builds by
// applying the committed entries in order.
type machine struct {
	kv map[string]string
}

func newMachine() *machine { return &machine{kv: map[string]string{}} }

// apply runs one command and returns what its client reads: the value for a
// get, "" otherwise. Append is not idempotent: applied twice, it appends
// twice.
func (m *machine) apply(c Command) string {
	switch c.In.Op {
	case linearize.KVGet:
		return m.kv[c.In.Key]
	case linearize.KVPut:
		m.kv[c.In.Key] = c.In.Value
	case linearize.KVAppend:
		m.kv[c.In.Key] += c.In.Value
	}
	return ""
}

// clone returns a copy that later applies do not change (disk values must
// not change once written).
func (m *machine) clone() *machine { return &machine{kv: maps.Clone(m.kv)} }

// encode returns the state as snapshot data: JSON, keys in order.
func (m *machine) encode() []byte {
	b, err := json.Marshal(m.kv)
	if err != nil {
		panic(err)
	}
	return b
}

// decodeMachine parses snapshot data written by encode.
func decodeMachine(data []byte) (*machine, error) {
	m := newMachine()
	if len(data) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(data, &m.kv); err != nil {
		return nil, fmt.Errorf("raft snapshot: not a key-value state: %v", err)
	}
	if m.kv == nil {
		m.kv = map[string]string{}
	}
	return m, nil
}

// digest is a hash of the state, equal for equal states.
func (m *machine) digest() uint64 {
	h := fnv.New64a()
	for _, k := range slices.Sorted(maps.Keys(m.kv)) {
		fmt.Fprintf(h, "%q=%q;", k, m.kv[k])
	}
	return h.Sum64()
}

// hashData returns a hash of entry data, for the monitors.
func hashData(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
