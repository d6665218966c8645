package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// Save streams a trace to the corpus: the file holds the trace's encoding,
// is named by its hash, the same trace saved twice is one file, and no
// temporary file stays behind.
func TestSaveNamesByContent(t *testing.T) {
	tr := &trace.Trace{
		Header: trace.Header{Seed: 7},
		Tasks:  []trace.Task{{ID: 0, Parent: -1, Name: "main"}},
	}
	for i := range 5000 { // past the writer's buffer
		tr.Events = append(tr.Events, trace.Event{Task: 0, Obj: -1, Kind: trace.KindYield, Val: int64(i)})
	}
	var want strings.Builder
	if err := trace.Encode(&want, tr); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(want.String()))
	dir := t.TempDir()
	path, err := Save(dir, tr)
	if err != nil {
		t.Fatal(err)
	}
	if base := filepath.Base(path); base != hex.EncodeToString(sum[:8]) {
		t.Errorf("saved as %s, want the content's hash %s", base, hex.EncodeToString(sum[:8]))
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("the file (%d bytes) is not the trace's encoding (%d bytes)", len(got), want.Len())
	}
	again, err := Save(dir, tr)
	if err != nil || again != path {
		t.Errorf("saved again: %s, %v; want %s", again, err, path)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v, want the one trace", names)
	}
	if list := Entries(dir); len(list) != 1 {
		t.Errorf("Entries: %v", list)
	}
}
