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
// version of Go and change of the code that morpheus test rewrites.

func init() {
	register(&command{
		name:    "clean",
		summary: "remove the rewrite cache of morpheus test and rewrite (rewritten files, test binaries)",
		run:     runClean,
	})
}

func runClean(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("clean", "clean [-cache DIR] [-n]", stderr)
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
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		fmt.Fprintf(stdout, "nothing to clean: %s does not exist\n", dir)
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		fmt.Fprintf(stdout, "nothing to clean: %s is empty\n", dir)
		return nil
	}
	// Only a directory that holds nothing but a cache's entries is removed:
	// a mistyped -cache must not remove a directory of the user's.
	for _, e := range entries {
		if !slices.Contains(driver.CacheEntries, e.Name()) {
			return fmt.Errorf("%s does not look like morpheus's rewrite cache (it holds %s): not removed", dir, e.Name())
		}
	}
	size := dirSize(dir)
	if *dry {
		fmt.Fprintf(stdout, "would remove %s (%s)\n", dir, megabytes(size))
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "removed %s (%s)\n", dir, megabytes(size))
	return nil
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
