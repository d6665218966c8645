package driver

import (
	"path/filepath"
	"testing"
)

// The go command's output names the files the build compiled from the
// cache: a rewritten file by its name in the cache (absolute, or relative to
// where go ran), an unchanged file of a module-cache module by its link.
// userPaths names them as the user knows them, at the same line and
// column; a rewritten module-cache file's //line names its original path
// already, and is left alone.
func TestUserPaths(t *testing.T) {
	cache, modcache, dir := "/c/morpheus", "/go/pkg/mod", "/src/m"
	ws := &workspace{cache: cache, modcache: modcache, linkDir: "/u/morpheus/links/0a1b", orig: map[string]string{
		"0123456789abcdef01234567.go": "/src/m/a.go",
		"89abcdef0123456789abcdef.go": "/src/m/sub/b_test.go",
		"fedcba9876543210fedcba98.go": "/elsewhere/c.go",
	}}
	for _, c := range []struct{ in, want string }{
		{"/c/morpheus/files/0123456789abcdef01234567.go:12:26: float64 does not satisfy",
			"./a.go:12:26: float64 does not satisfy"},
		{"vet: ../../c/morpheus/files/89abcdef0123456789abcdef.go:3:1: x", "vet: sub/b_test.go:3:1: x"},
		{"/c/morpheus/files/fedcba9876543210fedcba98.go:1:2: y", "/elsewhere/c.go:1:2: y"},
		{filepath.Join(cache, "mods", "example.com/x@v1.0.0/x.go") + ":4:5: z", modcache + "/example.com/x@v1.0.0/x.go:4:5: z"},
		{"/u/morpheus/links/0a1b/example.com/x@v1.0.0/x.go:4:5: z", modcache + "/example.com/x@v1.0.0/x.go:4:5: z"},
		{modcache + "/example.com/x@v1.0.0/y.go:7:1: w", modcache + "/example.com/x@v1.0.0/y.go:7:1: w"},
		{"/c/morpheus/files/ffffffffffffffffffffffff.go:1:1: unknown", "/c/morpheus/files/ffffffffffffffffffffffff.go:1:1: unknown"},
	} {
		if got := ws.userPaths(c.in, dir); got != c.want {
			t.Errorf("userPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
