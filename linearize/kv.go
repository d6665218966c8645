package linearize

import (
	"fmt"
	"hash/fnv"

	"github.com/anishathalye/porcupine"
)

// KVOp is the kind of a key-value operation.
type KVOp uint8

// Key-value operations. The zero KVOp is not an operation, so that a KVInput
// whose Op was forgotten is caught.
const (
	KVGet    KVOp = iota + 1 // read Key; the output's Value is what was read
	KVPut                    // set Key to Value
	KVAppend                 // append Value to Key's value
	KVCAS                    // set Key to Value if it holds Old; the output's OK says whether it did
)

// String returns the operation's name.
func (o KVOp) String() string {
	switch o {
	case KVGet:
		return "get"
	case KVPut:
		return "put"
	case KVAppend:
		return "append"
	case KVCAS:
		return "cas"
	}
	return fmt.Sprintf("KVOp(%d)", uint8(o))
}

// KVInput is the input of a KVModel operation, given to History.Call.
type KVInput struct {
	Op    KVOp
	Key   string
	Value string // put and append: the value; cas: the new value
	Old   string // cas: the value expected
}

// KVOutput is the output of a KVModel operation, given to History.Return.
// The outputs of put and append are ignored (KVOutput{}, nil or anything):
// only their effect is checked.
type KVOutput struct {
	Value string // get: the value read ("" for a key never written)
	OK    bool   // cas: whether it swapped
}

// KVModel is the sequential specification of a key-value store with
// linearizable get, put, append and compare-and-swap (KVInput, KVOutput).
// Keys are independent: a key never written reads as "", and the history is
// checked one key at a time (the model partitions it by key, so its state is
// one key's value, a string).
//
// An output of nil (a pending operation, see History.Operations) means the
// outcome is unknown: a pending get may have read anything, and a pending cas
// swapped if and only if the value it found was Old.
//
// The operations of a KVInput and KVOutput appear in reports and in the
// visualisation as, for example, put("x", "1"), get("x") → "1" and
// cas("x", "1", "2") → true.
var KVModel = porcupine.Model{
	Partition: kvPartition,
	Init:      func() any { return "" },
	Step:      kvStep,
	Hash: func(state any) uint64 {
		h := fnv.New64a()
		h.Write([]byte(state.(string)))
		return h.Sum64()
	},
	DescribeOperation: kvDescribe,
	DescribeState:     func(state any) string { return fmt.Sprintf("%q", state) },
}

// kvInput returns a KVModel input, or panics with a clear message.
func kvInput(input any) KVInput {
	in, ok := input.(KVInput)
	if !ok {
		panic(fmt.Sprintf("linearize.KVModel: input is %T, want linearize.KVInput", input))
	}
	return in
}

// kvOutput returns a KVModel output and whether it is known.
func kvOutput(output any) (KVOutput, bool) {
	if output == nil {
		return KVOutput{}, false
	}
	out, ok := output.(KVOutput)
	if !ok {
		panic(fmt.Sprintf("linearize.KVModel: output is %T, want linearize.KVOutput or nil", output))
	}
	return out, true
}

// kvPartition splits a history by key, keys in order of first call, each
// key's operations in their order in the history.
func kvPartition(history []porcupine.Operation) [][]porcupine.Operation {
	index := map[string]int{}
	var parts [][]porcupine.Operation
	for _, o := range history {
		k := kvInput(o.Input).Key
		i, ok := index[k]
		if !ok {
			i = len(parts)
			index[k] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], o)
	}
	return parts
}

func kvStep(state, input, output any) (bool, any) {
	st := state.(string)
	in := kvInput(input)
	switch in.Op {
	case KVGet:
		out, known := kvOutput(output)
		return !known || out.Value == st, st
	case KVPut:
		return true, in.Value
	case KVAppend:
		return true, st + in.Value
	case KVCAS:
		out, known := kvOutput(output)
		swap := st == in.Old
		if known && out.OK != swap {
			return false, st
		}
		if swap {
			return true, in.Value
		}
		return true, st
	}
	panic(fmt.Sprintf("linearize.KVModel: unknown operation %v", in.Op))
}

func kvDescribe(input, output any) string {
	in := kvInput(input)
	switch in.Op {
	case KVGet:
		s := fmt.Sprintf("get(%q)", in.Key)
		if out, known := kvOutput(output); known {
			return s + fmt.Sprintf(" → %q", out.Value)
		}
		return s + " → ?"
	case KVPut, KVAppend:
		return fmt.Sprintf("%v(%q, %q)", in.Op, in.Key, in.Value) // the output does not matter
	case KVCAS:
		s := fmt.Sprintf("cas(%q, %q, %q)", in.Key, in.Old, in.Value)
		if out, known := kvOutput(output); known {
			return s + fmt.Sprintf(" → %v", out.OK)
		}
		return s + " → ?"
	}
	return fmt.Sprintf("%v(%q)", in.Op, in.Key)
}
