package driver

import (
	"os"
	"path/filepath"
	"slices"
)

// The shadow standard library depends on morpheus's binary, Go's version
// and the settings that choose the standard library's files (shadowKey),
// not on the module under test: it is built once per key in a directory
// of the user's cache that every rewrite cache (-cache) shares, as the
// go command's build cache holds the standard library once. A new rewrite
// cache, each module of bench modules' cold runs, a CI job's fresh cache
// root, then spends nothing on it, where it paid the copy, type-check and
// rewrite (and the compile: the go command's cache key of a package holds
// its directory) once per cache root. Processes that need the same shadow
// at once (bench modules' parallel streams) build it one at a time under
// a lock of the key's directory; the others wait and read its record.
// Only the shadowsKept most recently built keys are kept: each build of
// morpheus makes a key of its own.

// shadowsKept is how many keys' shadows the shared directory keeps.
const shadowsKept = 4

// sharedShadowDir returns the directory of the shadow built under key in
// the user's cache directory, "" if there is none (a test's hook).
var sharedShadowDir = func(key string) string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "morpheus", "shadow", key)
}

// shadowDir returns the directory to build or read the shadow of key in,
// and the function that releases it: the shared directory, locked for
// this process, or, where there is none or it cannot be locked, the
// rewrite cache's own (cache/shadow/VERSION, where a later key's build
// replaces an earlier one's files).
func shadowDir(cache, ver, key string) (dir string, release func()) {
	if d := sharedShadowDir(key); d != "" && os.MkdirAll(d, 0o755) == nil {
		if unlock, err := lockFile(d + ".lock"); err == nil {
			pruneShadows(filepath.Dir(d), filepath.Base(d))
			return d, unlock
		}
	}
	return filepath.Join(cache, "shadow", ver), func() {}
}

// pruneShadows removes the shadows of root but the shadowsKept most
// recently built (by their record's time) and keep's, skipping any
// another process holds locked.
func pruneShadows(root, keep string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type built struct {
		name string
		at   int64
	}
	var all []built
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep {
			continue
		}
		var at int64
		if fi, err := os.Stat(filepath.Join(root, e.Name(), "shadow.json")); err == nil {
			at = fi.ModTime().UnixNano()
		}
		all = append(all, built{e.Name(), at})
	}
	slices.SortFunc(all, func(a, b built) int { return int(min(max(b.at-a.at, -1), 1)) })
	for _, b := range all[min(len(all), shadowsKept-1):] {
		dir := filepath.Join(root, b.name)
		if unlock, err := tryLockFile(dir + ".lock"); err == nil {
			os.RemoveAll(dir)
			os.Remove(dir + ".lock")
			unlock()
		}
	}
}
