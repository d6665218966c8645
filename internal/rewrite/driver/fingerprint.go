package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// A second run with nothing changed reuses the first one's test binaries:
// Prepare records, per set of packages and build settings, a fingerprint of
// everything the rewritten binaries depend on, and when the next Prepare
// computes the same fingerprint and the binaries are the ones it built, it
// skips loading, rewriting and building. The fingerprint costs one go list
// (no type checking) and reading the source files; loading the packages
// with their types, as rewriting needs, costs seconds.

// fingerprint hashes what a Prepare's output depends on: the Go version and
// build environment, the rewriter's version, the settings that change the
// build (patterns, exclusions, -race), go.mod and go.sum, every non-standard
// package the patterns' tests depend on (its path, directory, and the names
// and contents of its files), morpheus's own source, which the binaries
// link, and the running program (its path, size and time), which rewrote
// them.
func fingerprint(ctx context.Context, cfg Config, env []string, gomod, goVer string) (string, *sources, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%q\x00%q\x00%v\x00%q\x00", Version, goVer, cfg.Patterns, cfg.Exclude, cfg.Race, cfg.Vet)
	// The rewriter is this program: a build of it from other source than
	// morpheusDir (another checkout, a change not yet rebuilt into the
	// tests' source) rewrites differently under the same Version.
	if exe, err := executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d\x00", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	for _, k := range []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN", shadowEnv} {
		fmt.Fprintf(h, "%s=%s\x00", k, lookupEnv(env, k))
	}
	for _, f := range []string{gomod, strings.TrimSuffix(gomod, ".mod") + ".sum"} {
		if err := hashFile(h, f); err != nil && !os.IsNotExist(err) {
			return "", nil, err
		}
	}
	src, err := morpheusDir()
	if err != nil {
		return "", nil, err
	}
	if err := hashGoTree(h, src); err != nil {
		return "", nil, err
	}
	srcs := &sources{base: h.Sum(nil), files: map[string][]string{}, deps: map[string][]string{}, sums: map[string][]byte{}}
	args := append([]string{"list", "-deps", "-test", "-e",
		"-json=ImportPath,Dir,Standard,Deps,GoFiles,CgoFiles,CFiles,HFiles,SFiles,EmbedFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles"},
		cfg.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = cfg.Dir, env
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list -deps: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir string
			Standard        bool
			Deps            []string
			GoFiles, CgoFiles, CFiles, HFiles, SFiles, EmbedFiles,
			TestGoFiles, XTestGoFiles, IgnoredGoFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", nil, err
		}
		if strings.HasSuffix(p.ImportPath, ".test") {
			srcs.deps[p.ImportPath] = p.Deps
			continue // a test main is made from the others
		}
		if p.Standard {
			continue // the Go version covers it
		}
		fmt.Fprintf(h, "pkg %s %s\x00", p.ImportPath, p.Dir)
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.HFiles, p.SFiles, p.EmbedFiles, p.TestGoFiles, p.XTestGoFiles, p.IgnoredGoFiles} {
			for _, f := range list {
				fmt.Fprintf(h, "file %s\x00", f)
				if !filepath.IsAbs(f) {
					f = filepath.Join(p.Dir, f)
				}
				sum, err := srcs.sum(f)
				if err != nil {
					return "", nil, err
				}
				h.Write(sum)
				srcs.files[p.ImportPath] = append(srcs.files[p.ImportPath], f)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), srcs, nil
}

// hashGoTree hashes the names and contents of the .go files under root
// (tests and testdata excepted: they are not linked).
func hashGoTree(h io.Writer, root string) error {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, f := range files {
		fmt.Fprintf(h, "src %s\x00", f)
		if err := hashFile(h, f); err != nil {
			return err
		}
	}
	return nil
}

func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

func lookupEnv(env []string, k string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// executable is os.Executable, which a test replaces.
var executable = os.Executable

// prepared is what a Prepare records for the next one.
type prepared struct {
	Fingerprint string
	Packages    []preparedPackage
}

type preparedPackage struct {
	Path   string
	Issues []rewrite.Issue
	Binary string
	Key    string    // what the binary was built from (sources.key)
	Size   int64     // the binary's size and time, to tell it from one
	Mod    time.Time // another build wrote at the same path since
	Dir    string
}

// preparedFile returns where the record of a build with cfg's settings is.
func preparedFile(wsDir string, cfg Config) string {
	key := hashKey(fmt.Sprintf("%q %q %v %v %d", cfg.Patterns, cfg.Exclude, cfg.Race, cfg.Shard, cfg.ShardSpread), nil, "")
	return filepath.Join(wsDir, "prepared", key+".json")
}

// reusePrepared returns the packages of the last build with these settings
// if its fingerprint is fp and its binaries are still the ones it built.
func reusePrepared(file, fp string) []*PackageSummary {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var rec prepared
	if json.Unmarshal(data, &rec) != nil || rec.Fingerprint != fp {
		return nil
	}
	var out []*PackageSummary
	for _, p := range rec.Packages {
		if !p.intact() {
			return nil
		}
		out = append(out, &PackageSummary{Path: p.Path, Issues: p.Issues, Binary: p.Binary, dir: p.Dir, key: p.Key})
	}
	return out
}

// savePrepared records a build whose every package built, for reuse.
func savePrepared(file, fp string, pkgs []*PackageSummary) error {
	rec := prepared{Fingerprint: fp}
	for _, p := range pkgs {
		if p.Err != nil || p.Binary == "" {
			return nil
		}
		fi, err := os.Stat(p.Binary)
		if err != nil {
			return nil
		}
		rec.Packages = append(rec.Packages, preparedPackage{Path: p.Path, Issues: p.Issues, Binary: p.Binary, Key: p.key,
			Size: fi.Size(), Mod: fi.ModTime(), Dir: p.dir})
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}
