package driver

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Every rewrite cache reads one shadow per key, from the shared directory,
// locked while one process builds it; older keys' shadows are pruned but
// the newest, and one another process holds is not.
func TestShadowShared(t *testing.T) {
	shared := t.TempDir()
	defer func(old func(string) string) { sharedShadowDir = old }(sharedShadowDir)
	sharedShadowDir = func(key string) string { return filepath.Join(shared, key) }

	d1, release := shadowDir(t.TempDir(), "1.26", "k0")
	d2, release2 := shadowDir(t.TempDir(), "1.26", "k1")
	if d1 != filepath.Join(shared, "k0") || d2 != filepath.Join(shared, "k1") {
		t.Fatalf("dirs %s, %s: want the shared directory's per key", d1, d2)
	}
	if _, err := tryLockFile(d1 + ".lock"); err == nil {
		t.Fatal("a key's directory is not locked while its shadow is prepared")
	}
	release()
	if unlock, err := tryLockFile(d1 + ".lock"); err != nil {
		t.Fatalf("released, still locked: %v", err)
	} else {
		unlock()
	}
	// k0 and k1 built long ago, k2..k5 since, in that order; k1 is in use.
	for i := range 6 {
		dir := filepath.Join(shared, "k"+strconv.Itoa(i))
		os.MkdirAll(dir, 0o755)
		rec := filepath.Join(dir, "shadow.json")
		os.WriteFile(rec, []byte("{}"), 0o644)
		at := time.Unix(1_000_000+int64(i)*60, 0)
		os.Chtimes(rec, at, at)
	}
	d6, release6 := shadowDir(t.TempDir(), "1.26", "k6")
	defer release6()
	release2()
	d6dir := filepath.Base(d6)
	for i := range 7 {
		_, err := os.Stat(filepath.Join(shared, "k"+strconv.Itoa(i)))
		kept := err == nil
		want := i >= 6-(shadowsKept-1) || "k"+strconv.Itoa(i) == d6dir || i == 1 // the newest, this one, the one in use
		if kept != want {
			t.Errorf("k%d kept %v, want %v", i, kept, want)
		}
	}
}

// Without a shared directory the shadow is the rewrite cache's own.
func TestShadowUnshared(t *testing.T) {
	defer func(old func(string) string) { sharedShadowDir = old }(sharedShadowDir)
	sharedShadowDir = func(string) string { return "" }
	cache := t.TempDir()
	d, release := shadowDir(cache, "1.26", "k")
	defer release()
	if d != filepath.Join(cache, "shadow", "1.26") {
		t.Errorf("dir %s, want the cache's", d)
	}
}
