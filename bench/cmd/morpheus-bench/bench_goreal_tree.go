package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// realTrees are a bug's two worktrees: the fixed version (the last
// bug-free commit) and the bug version (that commit and the bug patch),
// each with the build fixes GoBench's Dockerfiles apply and bench goreal's
// own for today's Go (bench_goreal_gofix.go), and one go.mod.
type realTrees struct {
	Fixed, Bug string
	Env        []string // the go commands' environment in both
}

// prepareRealTrees checks out b from its clone into work/fixed and
// work/bug. The fixed version gets a go.mod where the commit has none
// (go mod init with the bug's module path and the Go release GoBench built
// it with, its vendored repositories as they are (bench_goreal_vendor.go),
// go mod tidy through the date proxy at the commit's date), and
// the bug version the same go.mod and go.sum. A vendor tree with its
// modules.txt is built from (-mod=vendor), as the go command would.
func prepareRealTrees(b *realBug, clone, work string, env []string, proxy string) (*realTrees, error) {
	date, err := commitTime(clone, b.Commit)
	if err != nil {
		return nil, err
	}
	t := &realTrees{Fixed: filepath.Join(work, "fixed"), Bug: filepath.Join(work, "bug")}
	for _, dir := range []string{t.Fixed, t.Bug} {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := checkout(clone, b.Commit, dir); err != nil {
			return nil, err
		}
	}
	if err := applyPatch(t.Bug, b.Patch, env); err != nil {
		return nil, err
	}
	for _, dir := range []string{t.Fixed, t.Bug} {
		for _, fix := range b.Fixes {
			if _, err := runBounded(dir, env, time.Minute, "sh", "-c", fix); err != nil {
				return nil, fmt.Errorf("build fix %q: %v", fix, err)
			}
		}
		if _, err := fixDuplicateAlphabets(dir); err != nil {
			return nil, fmt.Errorf("build fix of base64 alphabets: %v", err)
		}
	}
	flags := "-mod=mod"
	if _, err := os.Stat(filepath.Join(t.Fixed, "vendor", "modules.txt")); err == nil {
		flags = "-mod=vendor"
	}
	t.Env = goRealEnv(env, flags, proxy, date)
	gomod := filepath.Join(t.Fixed, "go.mod")
	if _, err := os.Stat(gomod); errors.Is(err, fs.ErrNotExist) {
		if _, err := runBounded(t.Fixed, t.Env, 2*time.Minute, "go", "mod", "init", b.Module); err != nil {
			return nil, fmt.Errorf("go mod init %s: %v", b.Module, err)
		}
		edit := []string{"mod", "edit"}
		if v := goLine(b.GoVersion); v != "" {
			edit = append(edit, "-go="+v)
		}
		repos, err := vendoredRepos(t.Fixed, b.Module)
		if err == nil {
			_, err = vendoredRepos(t.Bug, b.Module)
		}
		if err != nil {
			return nil, fmt.Errorf("vendor tree: %v", err)
		}
		for _, r := range repos {
			edit = append(edit, "-require="+r.Path+"@"+vendoredVersion(r.Path), "-replace="+r.Path+"="+r.Dir)
		}
		if _, err := runBounded(t.Fixed, t.Env, time.Minute, "go", edit...); err != nil {
			return nil, fmt.Errorf("go mod edit: %v", err)
		}
		if _, err := runBounded(t.Fixed, t.Env, 20*time.Minute, "go", "mod", "tidy", "-e"); err != nil {
			return nil, fmt.Errorf("go mod tidy: %s", firstLine(err.Error()))
		}
		for _, f := range []string{"go.mod", "go.sum"} {
			data, err := os.ReadFile(filepath.Join(t.Fixed, f))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(t.Bug, f), data, 0o644)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// goRealEnv is env with the go commands' module flags, the date proxy at
// date (when there is one) and the local toolchain.
func goRealEnv(env []string, flags, proxy string, date time.Time) []string {
	var out []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS":
			var keep []string
			for _, f := range strings.Fields(v) {
				if !strings.HasPrefix(f, "-mod=") {
					keep = append(keep, f)
				}
			}
			flags = strings.TrimSpace(strings.Join(keep, " ") + " " + flags)
			continue
		case "GOPROXY", "GOTOOLCHAIN":
			if proxy != "" || k == "GOTOOLCHAIN" {
				continue
			}
		}
		out = append(out, kv)
	}
	out = append(out, "GOFLAGS="+flags, "GOTOOLCHAIN=local")
	if proxy != "" {
		out = append(out, "GOPROXY="+proxy+"/"+strconv.FormatInt(date.Unix(), 10))
	}
	return out
}

// goLine turns GoBench's Go release (1.13, 1.8.6) into a go.mod go line.
func goLine(release string) string {
	f := strings.Split(release, ".")
	if len(f) < 2 || f[0] != "1" {
		return ""
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return ""
	}
	return "1." + f[1]
}

// commitTime is the committer date of commit in the clone.
func commitTime(clone, commit string) (time.Time, error) {
	out, err := exec.Command("git", "-C", clone, "log", "-1", "--format=%ct", commit).Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("commit %s not in %s: %v", commit, clone, err)
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("commit %s: date %q", commit, out)
	}
	return time.Unix(secs, 0), nil
}

// checkout writes the tree of commit into dir (git archive: the clone
// itself is not touched).
func checkout(clone, commit, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.Command("git", "-C", clone, "archive", "--format=tar", commit)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var aerr, terr strings.Builder
	archive.Stderr, untar.Stderr = &aerr, &terr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return fmt.Errorf("git archive %s: %v %s", commit, err, strings.TrimSpace(aerr.String()))
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("tar: %v %s", err, strings.TrimSpace(terr.String()))
	}
	return nil
}

// applyPatch applies a patch to the tree at dir, made a repository of its
// own for the time of it (git apply outside one would apply relative to an
// enclosing repository's root).
func applyPatch(dir, patch string, env []string) error {
	defer os.RemoveAll(filepath.Join(dir, ".git"))
	if _, err := runBounded(dir, env, time.Minute, "git", "init", "-q"); err != nil {
		return fmt.Errorf("git init: %v", err)
	}
	if _, err := runBounded(dir, env, time.Minute, "git", "apply", "--whitespace=nowarn", patch); err != nil {
		return fmt.Errorf("bug patch does not apply: %s", lastLine(err.Error()))
	}
	return nil
}
