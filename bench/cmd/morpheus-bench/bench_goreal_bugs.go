package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// realBug is one bug of GoBench's GoReal half: a named test function in a
// named package of an application, at the last commit without the bug
// (the fixed version), and a patch that puts the bug back (the bug
// version). It is read from the GoBench directory the user names; nothing
// of it is built into morpheus.
type realBug struct {
	Name      string // project_id, as GoBench names it (grpc_795)
	Project   string // grpc
	Type      string // blocking or nonblocking
	Subtype   string // GoBench's classification (Resource Deadlock, ...)
	Repo      string // the clone's directory name under -repos (grpc-go)
	Module    string // the import path of the application (google.golang.org/grpc)
	Commit    string // the last bug-free commit
	Test      string // the test function
	Pkg       string // its package, relative to the repository (./test)
	GoVersion string // the Go release GoBench built it with
	Patch     string // bug_patch.diff
	Fixes     []string
}

// goRealConfig is one entry of gobench/configures/goreal/*.json.
type goRealConfig struct {
	Type      string   `json:"type"`
	GoVersion string   `json:"goversion"`
	RepoURL   string   `json:"repo_url"`
	SrcPath   string   `json:"src_path"`
	PullSHA   string   `json:"pull_sha"`
	TestFunc  string   `json:"testfunc"`
	Workdir   string   `json:"workdir"`
	Pred      []string `json:"pred_commands"`
}

// goBenchRoot finds the directory holding goreal/ and configures/ under
// dir: dir itself or its gobench/ (the repository's root).
func goBenchRoot(dir string) (string, error) {
	for _, d := range []string{filepath.Join(dir, "gobench"), dir} {
		if st, err := os.Stat(filepath.Join(d, "configures", "goreal")); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s: no configures/goreal (nor gobench/configures/goreal): not a GoBench checkout", dir)
}

// loadRealBugs reads the GoReal bugs of the GoBench checkout at dir, in
// the order type, project, number.
func loadRealBugs(dir string) ([]*realBug, error) {
	root, err := goBenchRoot(dir)
	if err != nil {
		return nil, err
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	var bugs []*realBug
	for _, typ := range []string{"blocking", "nonblocking"} {
		file := filepath.Join(root, "configures", "goreal", typ+".json")
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var cfgs map[string]goRealConfig
		if err := json.Unmarshal(data, &cfgs); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for name, c := range cfgs {
			proj, id, ok := strings.Cut(name, "_")
			if !ok || c.PullSHA == "" {
				return nil, fmt.Errorf("%s: %s: expected project_id with a pull_sha", file, name)
			}
			b := &realBug{
				Name: name, Project: proj, Type: typ, Subtype: c.Type,
				Repo: repoDirName(c.RepoURL), Module: c.SrcPath, Commit: c.PullSHA,
				Test: c.TestFunc, Pkg: c.Workdir, GoVersion: c.GoVersion,
				Patch: filepath.Join(root, "goreal", typ, proj, id, "bug_patch.diff"),
				Fixes: goFileFixes(c.Pred),
			}
			if b.Pkg == "" {
				b.Pkg = "."
			}
			if !strings.HasPrefix(b.Pkg, ".") {
				b.Pkg = "./" + b.Pkg
			}
			bugs = append(bugs, b)
		}
	}
	sort.Slice(bugs, func(i, j int) bool {
		a, b := bugs[i], bugs[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return bugNumber(a.Name) < bugNumber(b.Name)
	})
	return bugs, nil
}

func bugNumber(name string) int {
	_, id, _ := strings.Cut(name, "_")
	n := 0
	for _, c := range id {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// repoDirName is the clone's name under -repos: the repository's own name
// (https://github.com/grpc/grpc-go is grpc-go).
func repoDirName(url string) string {
	return path.Base(strings.TrimSuffix(strings.TrimSuffix(url, "/"), ".git"))
}

// goFileFixes keeps the build fixes of a bug's Dockerfiles that edit the
// application's Go files in place (sed -i on a .go file: a vet finding of
// old code, a test made runnable); the others drive GoBench's own build
// scripts and containers and have no meaning here.
func goFileFixes(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		if !strings.HasPrefix(c, "sed -i ") || strings.ContainsAny(c, ";&|`$<>") {
			continue
		}
		f := strings.Fields(c)
		if last := f[len(f)-1]; strings.HasSuffix(last, ".go") && !strings.Contains(last, "..") && !strings.HasPrefix(last, "/") {
			out = append(out, c)
		}
	}
	return out
}

// selectRealBugs keeps the bugs named in list (comma-separated bug names
// or projects); all when list is empty.
func selectRealBugs(bugs []*realBug, list string) ([]*realBug, error) {
	if list == "" {
		return bugs, nil
	}
	var out []*realBug
	for _, want := range strings.Split(list, ",") {
		want = strings.TrimSpace(want)
		n := 0
		for _, b := range bugs {
			if b.Name == want || b.Project == want {
				out = append(out, b)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("-bugs: no GoReal bug or project %q", want)
		}
	}
	return out, nil
}
