package driver_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// A second Prepare with nothing changed reuses the first one's binary; a
// changed source file is built anew.
func TestPrepareReuses(t *testing.T) {
	t.Parallel()
	dir, prepare := lockorderCopy(t)
	prepare(false, "first build")
	prepare(true, "nothing changed")
	f, err := os.OpenFile(filepath.Join(dir, "bank.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n// an edit\n")
	f.Close()
	prepare(false, "a source file changed")
	prepare(true, "nothing changed since")
}

// A binary another build overwrote is built anew. (A test of its own, so
// that its builds do not wait for TestPrepareReuses's.)
func TestPrepareRebuildsOverwrittenBinary(t *testing.T) {
	t.Parallel()
	_, prepare := lockorderCopy(t)
	bin := prepare(false, "first build")
	later := time.Now().Add(time.Hour) // as another build of the same path would leave it
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	prepare(false, "the binary was overwritten")
}

// lockorderCopy copies testdata/lockorder for a test of Prepare's reuse and
// returns the copy's directory and a function that runs Prepare on it (a
// fresh cache) and fails the test unless it reused its binary as wantReuse
// says, returning the binary's path.
func lockorderCopy(t *testing.T) (string, func(wantReuse bool, why string) string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary twice")
	}
	proctest.WaitRuntime()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "bank.go", "bank_test.go"} {
		data, err := os.ReadFile(filepath.Join("../testdata/lockorder", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	cfg := driver.Config{Dir: dir, Patterns: []string{"."}, Cache: t.TempDir(), Log: &log,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
	prepare := func(wantReuse bool, why string) string {
		t.Helper()
		log.Reset()
		pkgs, err := driver.Prepare(context.Background(), cfg)
		if err != nil || len(pkgs) != 1 || pkgs[0].Err != nil || pkgs[0].Binary == "" {
			if len(pkgs) == 1 {
				t.Fatalf("%s: %v %+v\n%s", why, err, *pkgs[0], log.String())
			}
			t.Fatalf("%s: %v %+v\n%s", why, err, pkgs, log.String())
		}
		if got := strings.Contains(log.String(), "reusing its test binaries"); got != wantReuse {
			t.Fatalf("%s: reused %v, want %v:\n%s", why, got, wantReuse, log.String())
		}
		return pkgs[0].Binary
	}
	return dir, prepare
}
