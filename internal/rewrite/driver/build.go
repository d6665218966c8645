package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// Version is the rewriter's version, part of the cache key.
const Version = "rewrite-1"

// goEnvs returns `go env -json names...` run in dir.
func goEnvs(ctx context.Context, dir string, env []string, names ...string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env", "-json"}, names...)...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	return m, json.Unmarshal(out, &m)
}

// morpheusDir returns the root of morpheus's source, which the alternate
// go.mod replaces the module by: MORPHEUS_SRC, or where this file was built.
func morpheusDir() (string, error) {
	if d := os.Getenv("MORPHEUS_SRC"); d != "" {
		return d, nil
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate morpheus's source: set MORPHEUS_SRC")
	}
	d := filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	if _, err := os.Stat(filepath.Join(d, "rt", "test.go")); err != nil {
		return "", fmt.Errorf("morpheus's source is not at %s: set MORPHEUS_SRC", d)
	}
	return d, nil
}

// hashKey is the cache key of a rewritten file: the tool's and Go's
// versions, the file's path, its source and its rewritten text (which also
// keeps a development build of the rewriter from reusing stale output).
func hashKey(path string, src []byte, goVersion string, out ...byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00", Version, goVersion, path, len(src))
	h.Write(src)
	h.Write(out)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// workspace is a cache area for one run: overlay, alternate go.mod, links.
type workspace struct {
	cache    string // the cache root
	dir      string // this module's area
	modcache string
	goVer    string
	overlay  map[string]string
	links    map[string]string // module-cache dir -> its link
	linkDir  string            // where the links go (linkRoot), once known
	orig     map[string]string // a rewritten file's name in the cache -> the original's path
	replaced map[string]string // a rewritten file's original path -> its name in the cache
	shadow   string            // the shadow module's directory, "" without one (shadow.go)
}

// sharedLinkDir returns the directory of the links to the module cache
// modcache shared by every rewrite cache: the user's cache directory's
// morpheus/links/HASH, HASH naming modcache ("" if there is no user cache
// directory). (Not beneath GOMODCACHE: the go command refuses an overlay
// of a file there.)
var sharedLinkDir = func(modcache string) string {
	d, err := os.UserCacheDir()
	if err != nil || modcache == "" {
		return ""
	}
	return filepath.Join(d, "morpheus", "links", hashKey(modcache, nil, ""))
}

// linkRoot returns the directory that holds the links to module-cache
// directories: one per module cache, shared by every rewrite cache (-cache)
// and module, as the module cache is: a link's path is part of the go
// command's build-cache key of the packages built through it (their
// directory), so a dependency rewritten the same way (testify, yaml.v3: the
// same rewritten text, the overlay's files named by it) is compiled once
// for all of them, as go test compiles it once, not again for each cache
// root. Where that directory cannot be made, the cache root's "mods".
func (ws *workspace) linkRoot() string {
	if ws.linkDir == "" {
		ws.linkDir = filepath.Join(ws.cache, "mods")
		if d := sharedLinkDir(ws.modcache); d != "" && os.MkdirAll(d, 0o755) == nil {
			ws.linkDir = d
		}
	}
	return ws.linkDir
}

// link returns the path through which a module-cache directory is built.
func (ws *workspace) link(modDir string) (string, error) {
	if l, ok := ws.links[modDir]; ok {
		return l, nil
	}
	rel, err := filepath.Rel(ws.modcache, modDir)
	if err != nil {
		return "", err
	}
	l := filepath.Join(ws.linkRoot(), rel)
	if _, err := os.Lstat(l); err != nil {
		if err := os.MkdirAll(filepath.Dir(l), 0o755); err != nil {
			return "", err
		}
		if err := os.Symlink(modDir, l); err != nil && !os.IsExist(err) {
			return "", err
		}
	}
	ws.links[modDir] = l
	if err := ws.synthGoMod(modDir, l, rel); err != nil {
		return "", err
	}
	return l, nil
}

// synthGoMod gives a linked module that has no go.mod (one that predates
// modules, such as go-spew v1.1.1) the one the go command would make up
// for it, through the overlay: a directory replacement must have one.
func (ws *workspace) synthGoMod(modDir, l, rel string) error {
	if _, err := os.Stat(filepath.Join(modDir, "go.mod")); err == nil {
		return nil
	}
	path, _, ok := strings.Cut(filepath.ToSlash(rel), "@")
	if !ok {
		return nil
	}
	mod := []byte("module " + unescape(path) + "\n")
	out := filepath.Join(ws.cache, "files", hashKey(l, mod, ws.goVer)+".mod")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, mod, 0o644); err != nil {
		return err
	}
	ws.overlay[filepath.Join(l, "go.mod")] = out
	return nil
}

// inModCache reports whether path lies in the module cache.
func (ws *workspace) inModCache(path string) bool {
	return ws.modcache != "" && strings.HasPrefix(path, ws.modcache+string(os.PathSeparator))
}

// place writes a rewritten file into the cache and adds it to the overlay.
func (ws *workspace) place(p *rewrite.Package, f *rewrite.File) error {
	target := f.Path
	if ws.inModCache(f.Path) && p.Module != nil {
		l, err := ws.link(p.Module.Dir)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p.Module.Dir, f.Path)
		target = filepath.Join(l, rel)
	}
	src, err := os.ReadFile(f.Path)
	if err != nil {
		return err
	}
	out := filepath.Join(ws.cache, "files", hashKey(f.Path, src, ws.goVer, f.Out...)+".go")
	if _, err := os.Stat(out); err != nil {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		tmp := out + ".tmp"
		if err := os.WriteFile(tmp, f.Out, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
	}
	ws.overlay[target] = out
	ws.orig[filepath.Base(out)] = f.Path
	ws.replaced[f.Path] = out
	return nil
}

// altGoMod writes the alternate go.mod (and go.sum) of the main module in
// dir: the user's, plus morpheus replaced by its source and the linked
// module-cache modules replaced by their links. It returns "" when the
// main module is morpheus itself.
func (ws *workspace) altGoMod(ctx context.Context, gomod string, env []string) (string, error) {
	src, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	if bytes.Contains(src, []byte("module github.com/morpheus-go/morpheus\n")) {
		return "", nil
	}
	mdir, err := morpheusDir()
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if bytes.Contains(src, []byte("github.com/morpheus-go/morpheus")) {
		// The user's module requires morpheus (its tests call Check):
		// drop that requirement for the tool's.
		alt := filepath.Join(ws.dir, "go.mod")
		if err := os.MkdirAll(ws.dir, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(alt, src, 0o644); err != nil {
			return "", err
		}
		if err := pinMorpheus(ctx, alt, env); err != nil {
			return "", err
		}
		if src, err = os.ReadFile(alt); err != nil {
			return "", err
		}
	}
	b.Write(src)
	fmt.Fprintf(&b, "\nrequire github.com/morpheus-go/morpheus v0.0.0\nreplace github.com/morpheus-go/morpheus => %s\n", mdir)
	if ws.shadow != "" {
		fmt.Fprintf(&b, "require %s v0.0.0\nreplace %s => %s\n", rewrite.ShadowModule, rewrite.ShadowModule, ws.shadow)
	}
	for modDir, l := range ws.links {
		rel, _ := filepath.Rel(ws.modcache, modDir)
		path, _, ok := strings.Cut(filepath.ToSlash(rel), "@")
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "replace %s => %s\n", unescape(path), l)
	}
	alt := filepath.Join(ws.dir, "go.mod")
	if err := os.MkdirAll(ws.dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(alt, b.Bytes(), 0o644); err != nil {
		return "", err
	}
	var sum bytes.Buffer
	for _, f := range []string{strings.TrimSuffix(gomod, ".mod") + ".sum", filepath.Join(mdir, "go.sum")} {
		if s, err := os.ReadFile(f); err == nil {
			sum.Write(s)
		}
	}
	return alt, os.WriteFile(filepath.Join(ws.dir, "go.sum"), sum.Bytes(), 0o644)
}

// unescape undoes the module cache's case escaping (!x is X).
func unescape(p string) string {
	var b strings.Builder
	up := false
	for _, r := range p {
		if r == '!' {
			up = true
			continue
		}
		if up {
			r = []rune(strings.ToUpper(string(r)))[0]
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeOverlay writes overlay.json.
func (ws *workspace) writeOverlay() (string, error) {
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{ws.overlay}, "", "\t")
	if err != nil {
		return "", err
	}
	path := filepath.Join(ws.dir, "overlay.json")
	if err := os.MkdirAll(ws.dir, 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, data, 0o644)
}
