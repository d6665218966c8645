package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A GOPATH-era application keeps its dependencies in vendor directories
// without a modules.txt (govendor, glide, godep's vendor; etcd's under
// cmd/vendor), which the go command ignores in module mode. To build with
// them as they are, each vendored repository becomes a module of its own in
// place (a go.mod naming its import path) that the application's go.mod
// requires and replaces by that directory.

// vendoredRepo is one repository of a vendor tree: its import path and its
// directory relative to the application's root.
type vendoredRepo struct{ Path, Dir string }

// vendoredRepos finds the vendor directories of the tree at root (at most
// two levels down: vendor, cmd/vendor) and the repositories in them, gives
// each a go.mod, and returns them; the application's own path (a symlink
// back to the root) is left out. A vendor tree with a modules.txt is the
// go command's and is left alone.
func vendoredRepos(root, module string) ([]vendoredRepo, error) {
	var vendors []string
	for _, pat := range []string{"vendor", "*/vendor"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, d := range m {
			if st, err := os.Lstat(d); err != nil || !st.IsDir() {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, "modules.txt")); err == nil {
				continue
			}
			vendors = append(vendors, d)
		}
	}
	seen := map[string]bool{}
	var repos []vendoredRepo
	for _, v := range vendors {
		err := filepath.WalkDir(v, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || path == v {
				return err
			}
			rel, _ := filepath.Rel(v, path)
			imp := filepath.ToSlash(rel)
			n := repoRootElems(imp)
			if n == 0 || strings.Count(imp, "/")+1 < n {
				return nil
			}
			if imp == module || strings.HasPrefix(module, imp+"/") || strings.HasPrefix(imp, module+"/") || seen[imp] {
				return filepath.SkipDir
			}
			seen[imp] = true
			dir, _ := filepath.Rel(root, path)
			repos = append(repos, vendoredRepo{Path: imp, Dir: "./" + filepath.ToSlash(dir)})
			gomod := "module " + imp + "\n\ngo 1.13\n"
			if err := os.WriteFile(filepath.Join(path, "go.mod"), []byte(gomod), 0o644); err != nil {
				return err
			}
			return filepath.SkipDir
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(repos, func(i, j int) bool { return repos[i].Path < repos[j].Path })
	return repos, nil
}

// vendoredVersion is the version a replaced vendored repository is
// required at: v0.0.0, or its major version where its path names one
// (gopkg.in/yaml.v2, example.com/m/v3).
func vendoredVersion(imp string) string {
	i := strings.LastIndexAny(imp, "./")
	if i < 0 || i+2 > len(imp) || imp[i+1] != 'v' {
		return "v0.0.0"
	}
	n := imp[i+2:]
	if n == "" || strings.Trim(n, "0123456789") != "" || imp[i] == '/' && (n == "0" || n == "1") {
		return "v0.0.0"
	}
	if imp[i] == '.' && !strings.HasPrefix(imp, "gopkg.in/") {
		return "v0.0.0"
	}
	return "v" + n + ".0.0"
}

// repoRootElems is how many elements of an import path name its
// repository (github.com/a/b: 3; golang.org/x/net: 3; google.golang.org/grpc,
// gopkg.in/yaml.v2: 2; gopkg.in/user/pkg.v1: 3), 0 for a path that does not
// start with a host name.
func repoRootElems(imp string) int {
	host, rest, _ := strings.Cut(imp, "/")
	if !strings.Contains(host, ".") {
		return 0
	}
	switch host {
	case "github.com", "bitbucket.org", "golang.org", "gitlab.com":
		return 3
	case "gopkg.in":
		if first, _, _ := strings.Cut(rest, "/"); strings.Contains(first, ".v") {
			return 2
		}
		return 3
	}
	return 2
}
