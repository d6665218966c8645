package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// After an edit the fingerprint of the whole build changes, but most test
// binaries are built from the same files as before: an edit of one package
// changes the binaries of the packages whose tests link it (and those
// whose rewrite it changes, through what the rewrite learns across
// packages). Prepare keys each binary by the files it is compiled from, as
// the compiler sees them (a rewritten file by its name in the cache, which
// its source and its rewritten text make; another by its content), and
// reuses a binary whose key is the one it was built with: no go vet, no go
// test -c, no go command at all for it.

// sources are the files of a build's packages, as the fingerprint read
// them.
type sources struct {
	base  []byte              // the fingerprint of what every binary depends on (Go, settings, morpheus)
	files map[string][]string // package (go list's ImportPath, test variants apart) -> its files
	deps  map[string][]string // test main (path.test) -> the packages it links
	sums  map[string][]byte   // file -> its content's hash
}

// sum returns the hash of a file's content.
func (s *sources) sum(file string) ([]byte, error) {
	if b, ok := s.sums[file]; ok {
		return b, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b := sha256.Sum256(data)
	s.sums[file] = b[:]
	return b[:], nil
}

// key returns the key of the test binary of package path, whose rewritten
// files replaced (original path -> the rewritten file in the cache) puts
// in the overlay; "" if it cannot be known.
func (s *sources) key(path string, replaced map[string]string) string {
	if s == nil {
		return ""
	}
	deps, ok := s.deps[path+".test"]
	if !ok {
		return ""
	}
	h := sha256.New()
	h.Write(s.base)
	for _, d := range slices.Sorted(slices.Values(append(slices.Clip(deps), path+".test"))) {
		fmt.Fprintf(h, "pkg %s\x00", d)
		for _, f := range s.files[d] {
			if r, ok := replaced[f]; ok {
				fmt.Fprintf(h, "rewritten %s %s\x00", f, filepath.Base(r))
				continue
			}
			sum, ok := s.sums[f]
			if !ok {
				return ""
			}
			fmt.Fprintf(h, "file %s %x\x00", f, sum)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// builtBefore returns the binaries the last build with these settings
// recorded, by package, whose files are still the ones it built.
func builtBefore(file string) map[string]preparedPackage {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var rec prepared
	if json.Unmarshal(data, &rec) != nil {
		return nil
	}
	m := map[string]preparedPackage{}
	for _, p := range rec.Packages {
		if p.Key != "" && p.intact() {
			m[p.Path] = p
		}
	}
	return m
}

// intact reports whether p's binary is the one its build wrote.
func (p preparedPackage) intact() bool {
	fi, err := os.Stat(p.Binary)
	return err == nil && fi.Size() == p.Size && fi.ModTime().Equal(p.Mod)
}
