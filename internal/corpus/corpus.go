// Package corpus keeps the traces of a test's failures beside its package,
// as Go's fuzzing keeps its corpus: testdata/morpheus/<Test>/<hash>, one
// file per failure, named by the hash of its content. morpheus.Check and
// the rewritten tests of morpheus test (package rt) share it: a test
// replays its saved traces before exploring, so a bug once found keeps
// failing until it is fixed. The go command ignores testdata, so a saved
// trace changes no build (nor morpheus test's build fingerprint).
package corpus

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// Dir is the directory, relative to the test's package, that holds the
// traces of test's failures.
func Dir(test string) string {
	return filepath.Join("testdata", "morpheus", filepath.FromSlash(sanitize(test)))
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == '/':
			return r
		}
		return '_'
	}, name)
}

// Entries returns the paths of the trace files in dir, sorted: files whose
// names hold no dot (attachments and logs beside a trace have one).
func Entries(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !strings.Contains(e.Name(), ".") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	return paths
}

// Save writes tr into dir under the hash of its content (atomically) and
// returns the file's path.
func Save(dir string, tr *trace.Trace) (string, error) {
	return WriteHashed(dir, tr, func(sum []byte) string { return hex.EncodeToString(sum[:8]) })
}

// WriteHashed writes tr's encoding to a file in dir named by name, given
// the encoding's SHA-256, and returns its path. The encoding streams to a
// temporary file and the hash as it is made: a trace of millions of steps
// (a step-limit failure's) is hundreds of megabytes encoded, and held in
// memory, then copied to be hashed and written, it took several times that
// at the end of the schedule that was already the test's largest.
func WriteHashed(dir string, tr *trace.Trace, name func(sum []byte) string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name()) // once renamed, nothing to remove
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<16)
	err = trace.Encode(w, tr)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name(h.Sum(nil)))
	return path, os.Rename(f.Name(), path)
}
