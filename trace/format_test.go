package trace_test

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// formatExample is the format's reference example: canonical, so it must survive
// Decode and Encode byte for byte.
const formatExample = `morpheus-trace 1
test TestStorage
strategy random
seed 12345
iteration 17
failure assertion task=3 step=57 at="server.go:41" msg="replica count 3 but only 2 distinct"
task 0 parent=-1 key=0x1f2e name="main"
task 1 parent=0 key=0x3a name="server@n1"
s 1 t0 start
s 2 t0 spawn obj=1 at="storage_test.go:41"
s 3 t0 send obj=1 val=0 at="storage_test.go:44" msg="main.ClientReq{Data:3}"
clock 1500000000
s 4 t1 recv obj=0 val=0 flags=timeout at="server.go:20"
end
`

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustDecode(t *testing.T, text string) *trace.Trace {
	t.Helper()
	tr, err := trace.Decode(strings.NewReader(text), "test.trace")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return tr
}

func mustEncode(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	var b bytes.Buffer
	if err := trace.Encode(&b, tr); err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return b.String()
}

// TestCanonical checks that canonical files decode and re-encode unchanged.
func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"example", formatExample},
		{"storage", readTestdata(t, "testdata/storage.trace")},
		{"faults", readTestdata(t, "testdata/faults.trace")},
		{"minimal", "morpheus-trace 1\ntest T\nseed 0\niteration 0\nend\n"},
		{"quoted names", "morpheus-trace 1\ntest \"TestX/with space\"\nstrategy a=b\nseed 18446744073709551615\niteration -1\n" +
			"failure \"\" task=-1 step=0\ntask 0 parent=-1 key=0xffffffffffffffff name=\"\"\ns 1 t0 yield\nend\n"},
		{"equals in names", "morpheus-trace 1\ntest TestX/n=3\nseed 1\niteration 2\nfailure k=v task=-1 step=0\nend\n"},
		{"clocks only", "morpheus-trace 1\ntest T\nseed 1\niteration 2\nclock -5\nclock 9223372036854775807\nend\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustEncode(t, mustDecode(t, tc.text)); got != tc.text {
				t.Errorf("Encode(Decode(x)) differs from x:\n%s", got)
			}
		})
	}
}

// TestLenient checks that Decode accepts what a person editing a file may
// write, and that Encode then writes the canonical form.
func TestLenient(t *testing.T) {
	const lenientHead = "morpheus-trace 1\ntest T\nseed 1\niteration 2\ntask 0 parent=-1 key=0x1 name=\"main\"\n"
	for _, tc := range []struct{ name, in, want string }{
		{"comments and blanks", "# saved by hand\n\n" + lenientHead + "  # indented comment\n\t\ns 1 t0 start\n\nend\n# after end\n\n",
			lenientHead + "s 1 t0 start\nend\n"},
		{"key order and spacing", lenientHead + "s 1  t0\tsend  msg=\"m\"   val=0 obj=0\nend",
			lenientHead + "s 1 t0 send obj=0 val=0 msg=\"m\"\nend\n"},
		{"explicit defaults", lenientHead + "s 1 t0 yield obj=-1 res=0 val=0\nend\n",
			lenientHead + "s 1 t0 yield\nend\n"},
		{"flag order", lenientHead + "s 1 t0 recv flags=dropped,read,timeout\nend\n",
			lenientHead + "s 1 t0 recv val=0 flags=read,timeout,dropped\nend\n"},
		{"fault flag order", lenientHead + "s 1 t0 choose obj=0 val=3 flags=delayed,fault,duplicated,dropped\nend\n",
			lenientHead + "s 1 t0 choose obj=0 val=3 flags=dropped,fault,duplicated,delayed\nend\n"},
		{"CRLF", strings.ReplaceAll(lenientHead+"s 1 t0 start\nend\n", "\n", "\r\n"),
			lenientHead + "s 1 t0 start\nend\n"},
		{"quoted bare name", "morpheus-trace 1\ntest \"T\"\nseed 1\niteration 2\ntask 0 key=0x1 name=\"main\"\nend\n",
			lenientHead + "end\n"},
		{"task defaults", "morpheus-trace 1\ntest T\nseed 1\niteration 2\ntask 0\nend\n",
			"morpheus-trace 1\ntest T\nseed 1\niteration 2\ntask 0 parent=-1 key=0x0 name=\"\"\nend\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustEncode(t, mustDecode(t, tc.in)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

type fmtRequest struct {
	ID   int
	Body string
}

// TestRoundTrip checks that Decode(Encode(t)) gives t back, but for location
// numbers and message contents, which the file keeps as text.
func TestRoundTrip(t *testing.T) {
	tasks := []trace.Task{
		{ID: 0, Parent: -1, Name: "main", Key: 1},
		{ID: 1, Parent: 0, Name: "tab\there \"quoted\" ☃", Key: 1 << 63},
		{ID: 2, Parent: 1, Name: "", Key: 0},
	}
	for _, tc := range []struct {
		name string
		tr   trace.Trace
	}{
		{"empty", trace.Trace{Header: trace.Header{Test: "TestEmpty"}}},
		{"header", trace.Trace{Header: trace.Header{
			Test: "Test/sub case", Strategy: "x=\"y\"", Seed: 1<<64 - 1, Iteration: -7,
			Failure: &trace.Failure{Kind: "panic", Message: "boom\n\tgoroutine 1\x00\xff", Task: -1, Step: 3},
		}}},
		{"ran", trace.Trace{Header: trace.Header{
			Test: "TestLate", Options: map[string]string{"mode": "rewritten"},
			Ran: []trace.Run{
				{Test: "TestEarly", Replay: "testdata/morpheus/TestEarly/0a1b"},
				{Test: "TestNet", Real: "httptest.NewServer at n_test.go:9"},
				{Test: "TestEarly", Seed: 1<<64 - 1, Strategy: "pct d=3", Shard: 1, Shards: 3, Schedules: 100, Shrink: 7},
				{Test: "Test with space", Schedules: 0},
				{Test: "TestLate", Seed: 5, Schedules: 203},
			},
			Failure: &trace.Failure{Kind: "panic", Task: 0},
		}}},
		{"events", trace.Trace{
			Header: trace.Header{Test: "TestEvents", Failure: &trace.Failure{Kind: "deadlock", Task: 2, Loc: "x.go:1"}},
			Tasks:  tasks,
			Events: []trace.Event{
				{Task: 0, Obj: -1, Kind: trace.KindStart},
				{Task: 0, Obj: 1, Kind: trace.KindSpawn, Loc: 0x4000},
				{Task: 1, Obj: 2, Res: 1<<32 - 1, Kind: trace.KindSend, Val: 2, Loc: 0x4010},
				{Task: 1, Obj: 0, Kind: trace.KindSend, Val: 0, Loc: 0x4010, Flag: trace.FlagDropped},
				{Task: -1, Obj: -1, Kind: trace.KindClock, Val: 1e9},
				{Task: 2, Obj: 1, Kind: trace.KindRecv, Val: 2, Flag: trace.FlagRead, Loc: 0x9999},
				{Task: 2, Obj: -1, Kind: trace.KindChoose, Val: -1 << 63, Loc: 0x4000},
				{Task: 1, Obj: 2, Kind: trace.KindChoose, Val: 999, Flag: trace.FlagFault | trace.FlagDropped, Loc: 0x4010},
				{Task: 1, Obj: 0, Kind: trace.KindChoose, Val: 0, Flag: trace.FlagFault | trace.FlagDuplicated},
				{Task: 1, Obj: 0, Kind: trace.KindChoose, Val: 1, Flag: trace.FlagFault | trace.FlagDelayed},
				{Task: 1, Obj: 0, Kind: trace.KindChoose, Val: 2, Flag: trace.FlagFault},
				{Task: 0, Obj: -1, Kind: trace.KindRecv, Flag: trace.FlagTimeout | trace.FlagRead | trace.FlagDropped},
				{Task: 0, Obj: -1, Kind: trace.KindSend, Val: 5}, // message 5 has no content
				{Task: 0, Obj: -1, Kind: trace.KindNode, Val: 0},
				{Task: 2, Obj: -1, Kind: trace.KindExit},
			},
			Msgs:  []any{"text", nil, fmtRequest{ID: 1, Body: "a\nb"}},
			Where: map[uint64]string{0x4000: "main.go:10", 0x4010: "with space.go:3", 0x9999: ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := mustEncode(t, &tc.tr)
			got := mustDecode(t, text)
			if want := fmtNormalize(&tc.tr); !reflect.DeepEqual(fmtNormalize(got), want) {
				t.Errorf("Decode(Encode(t)) differs from t:\ngot  %+v\nwant %+v\nfile:\n%s", fmtNormalize(got), want, text)
			}
			if again := mustEncode(t, got); again != text {
				t.Errorf("re-encoding differs:\n%s\nfirst:\n%s", again, text)
			}
		})
	}
}

// fmtNormalized is a trace with locations and message contents as the file
// keeps them.
type fmtNormalized struct {
	Header trace.Header
	Tasks  []trace.Task
	Events []trace.Event
	At     []string // location text of each event, "" if none
	Msgs   map[int64]string
}

func fmtNormalize(tr *trace.Trace) fmtNormalized {
	n := fmtNormalized{Header: tr.Header, Tasks: tr.Tasks, Msgs: map[int64]string{}}
	n.Header.Version = trace.FormatVersion
	for _, e := range tr.Events {
		at, ok := tr.Where[e.Loc]
		if !ok {
			at = "<none>"
		}
		n.At = append(n.At, at)
		e.Loc = 0
		if e.Kind == trace.KindSend && e.Val >= 0 && e.Val < int64(len(tr.Msgs)) && tr.Msgs[e.Val] != nil {
			s := tr.MsgText(e.Val)
			n.Msgs[e.Val] = s
		}
		n.Events = append(n.Events, e)
	}
	return n
}

// TestDecodeWhere checks that Decode numbers locations from 1 in order of
// first appearance and shares the number of a repeated location.
func TestDecodeWhere(t *testing.T) {
	tr := mustDecode(t, "morpheus-trace 1\ntest T\nseed 1\niteration 2\ntask 0\n"+
		"s 1 t0 start at=\"b.go:2\"\ns 2 t0 yield at=\"a.go:1\"\ns 3 t0 yield at=\"b.go:2\"\ns 4 t0 exit\nend\n")
	var locs []uint64
	for _, e := range tr.Events {
		locs = append(locs, e.Loc)
	}
	if want := []uint64{1, 2, 1, 0}; !reflect.DeepEqual(locs, want) {
		t.Errorf("Locs = %v, want %v", locs, want)
	}
	if want := map[uint64]string{1: "b.go:2", 2: "a.go:1"}; !reflect.DeepEqual(tr.Where, want) {
		t.Errorf("Where = %v, want %v", tr.Where, want)
	}
}

// TestEncodeLongText checks that Encode cuts a huge message so that the file
// stays readable, and that the cut text survives another round unchanged.
func TestEncodeLongText(t *testing.T) {
	tr := &trace.Trace{
		Header: trace.Header{Test: "T", Failure: &trace.Failure{Kind: "panic", Message: strings.Repeat("\x00", 1<<20)}},
		Tasks:  []trace.Task{{ID: 0, Parent: -1}},
		Events: []trace.Event{{Task: 0, Obj: -1, Kind: trace.KindSend}},
		Msgs:   []any{strings.Repeat("☃", 1<<20)},
	}
	text := mustEncode(t, tr)
	got := mustDecode(t, text)
	msg := got.Msgs[0].(string)
	if len(msg) > 300<<10 || !strings.HasSuffix(msg, "...") || !strings.HasPrefix(msg, "☃☃☃") {
		t.Errorf("message of %d bytes not cut as expected: %q...", len(msg), msg[:20])
	}
	if m := got.Header.Failure.Message; len(m) > 300<<10 || !strings.HasSuffix(m, "...") {
		t.Errorf("failure message of %d bytes not cut", len(m))
	}
	if again := mustEncode(t, got); again != text {
		t.Error("cut text changed on re-encoding")
	}
}

// TestEncodeRejects checks that Encode refuses, without writing, a trace
// that Decode would reject.
func TestEncodeRejects(t *testing.T) {
	main := []trace.Task{{ID: 0, Parent: -1}}
	for _, tc := range []struct {
		name string
		tr   trace.Trace
		want string
	}{
		{"task id", trace.Trace{Tasks: []trace.Task{{ID: 1, Parent: -1}}}, "task at index 0 has ID 1"},
		{"parent", trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: 1}}}, "parent 1"},
		{"event task", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 1, Obj: -1, Kind: trace.KindYield}}}, "task 1"},
		{"runtime step", trace.Trace{Tasks: main, Events: []trace.Event{{Task: -1, Obj: -1, Kind: trace.KindYield}}}, "task -1"},
		{"event obj", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -2, Kind: trace.KindYield}}}, "obj -2"},
		{"invalid kind", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -1}}}, "kind invalid"},
		{"unknown kind", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -1, Kind: 200}}}, "kind kind(200)"},
		{"flags", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -1, Kind: trace.KindYield, Flag: 0x80}}}, "flags 0x80"},
		{"msg id", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -1, Kind: trace.KindSend, Val: 1<<24 + 1}},
			Msgs: make([]any, 1<<24+2)}, ""},
		{"long name", trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: -1, Name: strings.Repeat("n", 1<<20)}}}, "task name"},
		{"long location", trace.Trace{Tasks: main, Events: []trace.Event{{Task: 0, Obj: -1, Kind: trace.KindYield, Loc: 1}},
			Where: map[uint64]string{1: strings.Repeat("x", 1<<20)}}, "location"},
		{"failure task", trace.Trace{Header: trace.Header{Failure: &trace.Failure{Task: -2}}}, "task -2"},
		{"ran no test", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Schedules: 1}}}}, "without a test"},
		{"ran schedules", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Schedules: -1}}}}, "schedules=-1"},
		{"ran shard", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Shard: 2, Shards: 2}}}}, "shard 2/2"},
		{"ran shard alone", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Shard: 1}}}}, "shard 1/0"},
		{"ran both", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Replay: "p", Schedules: 3}}}}, "replays a trace or runs on the real network, and explores"},
		{"ran real and explores", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Real: "net", Seed: 3}}}}, "runs on the real network, and explores"},
		{"ran real and replay", trace.Trace{Header: trace.Header{Ran: []trace.Run{{Test: "T", Real: "net", Replay: "p"}}}}, "replays a trace and runs on the real network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "msg id" {
				tc.tr.Msgs[1<<24+1] = "m"
				tc.want = "message 16777217"
			}
			var b bytes.Buffer
			err := trace.Encode(&b, &tc.tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Encode error = %v, want one containing %q", err, tc.want)
			}
			if b.Len() != 0 {
				t.Errorf("Encode wrote %d bytes before failing", b.Len())
			}
		})
	}
}

type fmtFailWriter struct{}

var errFmtWrite = errors.New("disk full")

func (fmtFailWriter) Write([]byte) (int, error) { return 0, errFmtWrite }

type fmtFailReader struct{ r *strings.Reader }

var errFmtRead = errors.New("connection reset")

func (f fmtFailReader) Read(b []byte) (int, error) {
	if f.r.Len() == 0 {
		return 0, errFmtRead
	}
	return f.r.Read(b)
}

// TestIOErrors checks that Encode and Decode return the errors of their
// writer and reader, not format errors.
func TestIOErrors(t *testing.T) {
	if err := trace.Encode(fmtFailWriter{}, mustDecode(t, formatExample)); !errors.Is(err, errFmtWrite) {
		t.Errorf("Encode error = %v, want %v", err, errFmtWrite)
	}
	_, err := trace.Decode(fmtFailReader{strings.NewReader("morpheus-trace 1\ntest T\n")}, "x.trace")
	if !errors.Is(err, errFmtRead) || !strings.HasPrefix(err.Error(), "x.trace:2: ") {
		t.Errorf("Decode error = %v, want x.trace:2: wrapping %v", err, errFmtRead)
	}
	var fe *trace.FormatError
	if errors.As(err, &fe) {
		t.Errorf("read error reported as a format error: %v", err)
	}
}
