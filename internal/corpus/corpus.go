// Package corpus keeps the traces of a test's failures beside its package,
// as Go's fuzzing keeps its corpus: testdata/morpheus/<Test>/<hash>, one
// file per failure, named by the hash of its content. morpheus.Check and
// the rewritten tests of morpheus test (package rt) share it: a test
// replays its saved traces before exploring, so a bug once found keeps
// failing until it is fixed. The go command ignores testdata, so a saved
// trace changes no build (nor morpheus test's build fingerprint).
package corpus

import (
	"crypto/sha256"
	"encoding/hex"
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
	var b strings.Builder
	if err := trace.Encode(&b, tr); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(b.String()))
	path := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}
