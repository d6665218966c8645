package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// shadowEnv turns the shadow standard library off (rewrite's shadow.go):
// by default rewritten code imports rewritten copies of net/http and the
// standard packages that import it, whose goroutines are tasks and whose
// network is the in-memory one, so a test that serves or dials HTTP runs
// under control instead of once on the real network. MORPHEUS_SHADOW=0 (or
// false, off) in the environment keeps the standard library's: such tests
// then run once on the real network, as before.
const shadowEnv = "MORPHEUS_SHADOW"

// shadowOn reports whether the environment leaves the shadow on.
func shadowOn(env []string) bool {
	switch strings.ToLower(lookupEnv(env, shadowEnv)) {
	case "0", "false", "off", "no":
		return false
	}
	return true
}

// shadowNeeded reports whether the tests of a run link net/http, and so
// need the shadow: srcs is the fingerprint's list of what each test main
// links, nil when it could not be made (then the shadow is built, as it
// may be needed). A run whose tests do not link net/http pays nothing for
// the shadow, not even its first build.
func shadowNeeded(srcs *sources) bool {
	if srcs == nil {
		return true
	}
	for _, deps := range srcs.deps {
		for _, d := range deps {
			if d == "net/http" {
				return true
			}
		}
	}
	return false
}

// shadowRecord is what the cache keeps of a built shadow: the key it was
// built under, its package map, and whether it compiled.
type shadowRecord struct {
	Key   string
	Map   map[string]string
	Built bool
	Err   string
}

// shadowKey identifies a shadow's build: the rewriter (this program), Go's
// version and the settings that choose the standard library's files.
func shadowKey(goVer, mdir string, env []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", Version, goVer, mdir)
	if exe, err := executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d\x00", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	for _, k := range []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN", "GOROOT"} {
		fmt.Fprintf(h, "%s=%s\x00", k, lookupEnv(env, k))
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// prepareShadow returns the shadow of this Go version, built (copied,
// rewritten and compiled) into the user's cache directory (shadowshare.go)
// unless a build under the same key is there; nil, with the reason, when it does not build: then the
// packages that import net/http keep the standard library's, and their
// tests the real-network rule. The compile check is go build of every
// shadow package, which fills the go command's cache the tests' builds
// then use.
func prepareShadow(ctx context.Context, cache, dir, goVer string, env []string) (*rewrite.Shadow, error) {
	mdir, err := morpheusDir()
	if err != nil {
		return nil, err
	}
	key := shadowKey(goVer, mdir, env)
	sdir, release := shadowDir(cache, strings.TrimPrefix(goVer, "go"), key)
	defer release()
	recPath := filepath.Join(sdir, "shadow.json")
	var rec shadowRecord
	if data, err := os.ReadFile(recPath); err == nil && json.Unmarshal(data, &rec) == nil && rec.Key == key {
		if !rec.Built {
			return nil, fmt.Errorf("%s", rec.Err)
		}
		return &rewrite.Shadow{Dir: filepath.Join(sdir, "rw"), Map: rec.Map}, nil
	}
	rec = shadowRecord{Key: key}
	s, err := buildShadow(ctx, rewrite.ShadowConfig{Dir: sdir, Env: env, GoVersion: langVersion(goVer), Morpheus: mdir})
	if err == nil {
		rec.Map = s.Map
		cmd := exec.CommandContext(ctx, "go", "build", "./...")
		cmd.Dir, cmd.Env = s.Dir, append(append([]string(nil), env...), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
		if out, berr := cmd.CombinedOutput(); berr != nil {
			err = fmt.Errorf("the shadow packages do not build: %v\n%s", berr, out)
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		rec.Err = err.Error()
	} else {
		rec.Built = true
	}
	if data, jerr := json.Marshal(rec); jerr == nil {
		os.MkdirAll(sdir, 0o755)
		os.WriteFile(recPath, data, 0o644)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// buildShadow builds the shadow's source (a test's hook).
var buildShadow = rewrite.BuildShadow

// langVersion returns a go version's language version, "go1.26.8" ->
// "1.26".
func langVersion(goVer string) string {
	v := strings.TrimPrefix(goVer, "go")
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
			v = v[:i+1+j]
		}
	}
	if i := strings.IndexAny(v, "-+ "); i >= 0 {
		v = v[:i]
	}
	return v
}
