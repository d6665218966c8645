package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCacheRootIsAbsolute: a relative -cache is taken from where morpheus
// runs, not from each test process's package directory (the binaries'
// paths recorded under it were relative, and every test process failed
// without output).
func TestCacheRootIsAbsolute(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := cacheRoot(filepath.Join("..", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(wd), "cache"); got != want {
		t.Errorf("cacheRoot(../cache) = %q, want %q", got, want)
	}
	if got, err := cacheRoot(""); err != nil || !filepath.IsAbs(got) {
		t.Errorf("cacheRoot(\"\") = %q, %v: want the default, absolute", got, err)
	}
}
