package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// morpheus clean removes the rewrite cache, which grows with every module,
// version of Go and change of the code that morpheus test rewrites, and the
// benchmarks' commands that morpheus bench built (one per clone, beside the
// default rewrite cache: benchBinary), and the shared shadow standard
// library (the driver's shadowshare.go).

func init() {
	register(&command{
		name:    "clean",
		summary: "remove the rewrite cache of morpheus test and rewrite, and the binaries morpheus bench built",
		run:     runClean,
	})
}

func runClean(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("clean", "clean [-cache DIR] [-n]", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: morpheus clean [-cache DIR] [-n]

Removes the rewrite cache of morpheus test and morpheus rewrite (rewritten
files, test binaries): morpheus/rewrite in the user's cache directory
(~/.cache/morpheus/rewrite on Linux), or -cache's directory; and the
benchmarks' commands that morpheus bench built from a clone,
morpheus/morpheus-bench-* in the user's cache directory, and the shadow
standard library morpheus test builds there once for every rewrite cache,
morpheus/shadow. With -cache, only
that directory is removed, and only if it holds nothing but a rewrite
cache's entries.

Flags:
`)
		fs.PrintDefaults()
	}
	cache := fs.String("cache", "", "the cache directory, as given to morpheus test -cache (default: morpheus/rewrite in the user's cache directory)")
	dry := fs.Bool("n", false, "print what would be removed and its size, remove nothing")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "morpheus clean: takes no arguments")
		return errUsage
	}
	dir := *cache
	if dir == "" {
		dir = driver.DefaultCache()
	}
	remove := func(path string, size int64) error {
		if *dry {
			fmt.Fprintf(stdout, "would remove %s (%s)\n", path, megabytes(size))
			return nil
		}
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s (%s)\n", path, megabytes(size))
		return nil
	}
	why, err := rewriteCache(dir)
	if err != nil {
		return err
	}
	if why == "" {
		if err := remove(dir, dirSize(dir)); err != nil {
			return err
		}
	}
	var bins []string
	shadows := ""
	if *cache == "" {
		bins, _ = filepath.Glob(benchBinary(userCacheDir(), "*"))
		shadows = filepath.Join(userCacheDir(), "morpheus", "shadow")
		if info, err := os.Lstat(shadows); err != nil || !info.IsDir() {
			shadows = ""
		}
	}
	for _, bin := range bins {
		if info, err := os.Lstat(bin); err == nil && info.Mode().IsRegular() {
			if err := remove(bin, info.Size()); err != nil {
				return err
			}
		}
	}
	if shadows != "" {
		if err := remove(shadows, dirSize(shadows)); err != nil {
			return err
		}
	}
	if why != "" && len(bins) == 0 && shadows == "" {
		fmt.Fprintf(stdout, "nothing to clean: %s %s\n", dir, why)
	}
	return nil
}

// rewriteCache checks that dir is a rewrite cache to remove: "" if it is,
// why not if there is nothing to remove ("does not exist", "is empty"), an
// error if dir holds something else: a mistyped -cache must not remove a
// directory of the user's.
func rewriteCache(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return "does not exist", nil
	}
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return "is empty", nil
	}
	for _, e := range entries {
		if !slices.Contains(driver.CacheEntries, e.Name()) {
			return "", fmt.Errorf("%s does not look like morpheus's rewrite cache (it holds %s): not removed", dir, e.Name())
		}
	}
	return "", nil
}

// dirSize is the size of the regular files under dir (links not followed).
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
