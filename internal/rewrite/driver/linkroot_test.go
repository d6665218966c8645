package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A module-cache directory is built through a link, and the link's path is
// part of the go command's build-cache key of its packages: two rewrite
// caches (two -cache roots, or two modules' runs) link it at the same path,
// under the user's cache directory, so that the go command compiles a
// rewritten dependency once for both. Before, each cache root had its own
// links (ROOT/mods), and a fresh cache compiled testify's rewritten stack
// again. With no user cache directory, the cache root's mods.
func TestLinksSharedAcrossCaches(t *testing.T) {
	tmp := t.TempDir()
	modcache := filepath.Join(tmp, "gomodcache")
	modDir := filepath.Join(modcache, "example.com", "x@v1.0.0")
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(modDir, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "xdg"))
	newWS := func(cache string) *workspace {
		return &workspace{cache: cache, modcache: modcache, overlay: map[string]string{}, links: map[string]string{}}
	}
	l1, err := newWS(filepath.Join(tmp, "c1")).link(modDir)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := newWS(filepath.Join(tmp, "c2")).link(modDir)
	if err != nil {
		t.Fatal(err)
	}
	if l1 != l2 || !strings.HasPrefix(l1, filepath.Join(tmp, "xdg", "morpheus", "links")+string(os.PathSeparator)) {
		t.Errorf("links %s and %s: want one path under the user's cache directory", l1, l2)
	}
	if got, err := filepath.EvalSymlinks(l1); err != nil || got != modDir {
		t.Errorf("link %s leads to %s (%v), want %s", l1, got, err, modDir)
	}

	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	l3, err := newWS(filepath.Join(tmp, "c3")).link(modDir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(tmp, "c3", "mods", "example.com", "x@v1.0.0"); l3 != want {
		t.Errorf("with no user cache directory, link %s, want %s", l3, want)
	}
}
