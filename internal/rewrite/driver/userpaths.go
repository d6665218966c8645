package driver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// cacheFile matches the name of a rewritten file in the cache, as the go
// command prints it in a compile error (absolute, or relative to where it
// ran): the file's hash is its key in workspace.orig.
var cacheFile = regexp.MustCompile(`[^\s:"']*\b([0-9a-f]{24}\.go)\b`)

// userPaths returns the go command's output msg with the files the build
// compiled from the cache named by the user's paths: a rewritten file by
// its original (its lines are the original's lines), a file of a linked
// module by its path in the module cache. Paths are shortened as the go
// command shortens them, relative to dir where it ran. Module-cache files
// that were rewritten carry a //line directive, so the compiler names them
// by their original path already.
func (ws *workspace) userPaths(msg, dir string) string {
	msg = cacheFile.ReplaceAllStringFunc(msg, func(m string) string {
		orig, ok := ws.orig[filepath.Base(m)]
		if !ok {
			return m
		}
		return shortPath(orig, dir)
	})
	if ws.modcache != "" {
		for _, root := range []string{ws.linkDir, filepath.Join(ws.cache, "mods")} {
			if root != "" {
				msg = strings.ReplaceAll(msg, root+string(os.PathSeparator), ws.modcache+string(os.PathSeparator))
			}
		}
	}
	return msg
}

// shortPath is how the go command names a file in its output: relative to
// dir if that is shorter and does not leave dir ("./x.go" in dir itself),
// absolute otherwise.
func shortPath(path, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(abs, path)
	if err != nil || len(rel) >= len(path) || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return path
	}
	if !strings.Contains(rel, string(os.PathSeparator)) {
		return "." + string(os.PathSeparator) + rel
	}
	return rel
}
