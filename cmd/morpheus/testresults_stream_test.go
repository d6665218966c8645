package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"testing/iotest"
)

// A corpus line streamed from its files is the line json.Marshal writes
// for it, whatever the reads return: runes split between reads, invalid
// UTF-8, characters JSON escapes, an empty log (no field).
func TestCorpusLineAsMarshal(t *testing.T) {
	l := corpusLine{Package: "example.com/m", Test: "TestX/a<b>", Dir: "sub", Path: "testdata/morpheus/TestX/0123"}
	trace := "morpheus-trace 1\ntest \"TestX\"\n" + strings.Repeat("é€😀 <&> \t\x01\xff\xe2\x82", 3000) + "\u2028end\n"
	for _, log := range []string{"", "line 1\n\x00 \"quoted\" ✓\n"} {
		want := l
		want.Trace, want.Log = trace, log
		b, err := json.Marshal(runLine{Kind: "corpus", Corpus: &want})
		if err != nil {
			t.Fatal(err)
		}
		for name, wrap := range map[string]func(io.Reader) io.Reader{
			"whole": func(r io.Reader) io.Reader { return r }, "one byte": iotest.OneByteReader,
			"half": iotest.HalfReader, "data and EOF": iotest.DataErrReader,
		} {
			var out bytes.Buffer
			var lr io.Reader
			if log != "" || name == "whole" {
				lr = wrap(strings.NewReader(log))
			}
			if err := writeCorpusLine(&out, &l, wrap(strings.NewReader(trace)), lr); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(b)+"\n" {
				t.Errorf("log %q, reads %s: the line differs from json.Marshal's at byte %d", log, name, firstDiff(got, string(b)+"\n"))
			}
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Writing a corpus line holds a chunk of the trace, not the trace: with a
// 32 MB trace, the heap grows by a few MB while the line is written (the
// garbage of the chunks the collector has not yet taken), where reading it
// whole held it several times over (213 MB).
func TestCorpusLineStreamsTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 32 MB trace")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	line := []byte("s 1 t0 send obj=1 val=0 at=\"storage_test.go:44\" msg=\"main.ClientReq{Data:3}\"\n")
	size := 32 << 20
	for n := 0; n < size; n += len(line) {
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	runtime.GC()
	base := heapBytes()
	sink := &peakWriter{peak: base}
	rw := &resultWriter{w: sink}
	rw.corpus(&savedTrace{line: corpusLine{Package: "p", Test: "TestBig", Dir: ".", Path: "testdata/morpheus/TestBig/1"}, trace: path})
	if rw.err != nil {
		t.Fatal(rw.err)
	}
	if sink.n < int64(size) {
		t.Fatalf("wrote %d bytes, want the trace's %d and more", sink.n, size)
	}
	grew := sink.peak - base
	t.Logf("a %d MB trace: the heap grew by %.1f MB while its line was written", size>>20, float64(grew)/(1<<20))
	if grew > 48<<20 {
		t.Errorf("the heap grew by %d MB while the line of a %d MB trace was written: the trace is held in memory", grew>>20, size>>20)
	}
}

// peakWriter counts what it is given and samples the heap at every write.
type peakWriter struct {
	n    int64
	peak uint64
}

func (w *peakWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.peak = max(w.peak, heapBytes())
	return len(p), nil
}

// heapBytes is the memory that the heap's objects, live or not yet
// collected, take.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
