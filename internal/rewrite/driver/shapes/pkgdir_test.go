package shapes_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Tests that create, read back and remove the same file of their package's
// directory (testdata/pkgdir: upload.tmp) pass under -jobs 2 as under go
// test: the first test process runs in the package's directory, the other
// in a private copy of it, so neither removes what the other wrote. The
// directory above is read through the copy's mirror, a file a test keeps
// is in the package's directory after the run (the first process wrote
// it, as go test would), and nothing else is left there: not the upload,
// nor the corpus directory made for the copies to link to.
func TestJobsWritePackageDir(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "pkgdir", 40, 1)
	cfg.Patterns, cfg.Jobs, cfg.Corpus = []string{"./writer"}, 2, true
	dir := filepath.Join(cfg.Dir, "writer")
	kept := filepath.Join(dir, "kept.tmp")
	os.Remove(kept)
	t.Cleanup(func() {
		os.Remove(kept)
		os.RemoveAll(filepath.Join(dir, "testdata")) // the traces of a failure
	})
	sum := explore(t, cfg)
	for _, name := range []string{"TestUploadA", "TestUploadB", "TestAbove"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 40 {
			t.Errorf("%s: %+v; want 40 schedules under control, passing", name, ts)
		}
	}
	if b, err := os.ReadFile(kept); err != nil || string(b) != "kept\n" {
		t.Errorf("kept.tmp after the run: %q, %v; want the file the test wrote", b, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"kept.tmp", "writer.go", "writer_test.go"}; !slices.Equal(names, want) {
		t.Errorf("the package's directory after the run holds %q, want %q", names, want)
	}
}
