package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The GoKer kernels of GoBench (Yuan et al., CGO'21): 103 small Go packages,
// each reproducing a real concurrency bug of a Go project with one ordinary
// test. "morpheus bench goker" reads them from a checkout the user points to
// and copies them into a temporary module; none of GoBench is in this
// repository.

// gokerKernel is one kernel of the checkout.
type gokerKernel struct {
	Name     string // as in GoBench's configure files: project_id
	Blocking bool
	Category string // the configure file's "type": Resource Deadlock, Traditional, ...
	Subtype  string // the configure file's "subtype": Double locking, Data race, ...
	Src      string // its directory in the checkout
	Rel      string // its directory in the temporary module: blocking/project/id
	Readme   []int  // the lines its README names (bench_goker_readme.go)
}

// typ is "blocking" or "non-blocking".
func (k *gokerKernel) typ() string {
	if k.Blocking {
		return "blocking"
	}
	return "non-blocking"
}

// gokerLayout is what a checkout must look like, for the error message.
const gokerLayout = "a GoBench checkout (its root, or its gobench/goker folder) with gobench/goker/{blocking,nonblocking}/<project>/<id>/ and gobench/configures/goker/{blocking,nonblocking}.json"

// gokerRoots returns the goker folder and the configure folder of dir.
func gokerRoots(dir string) (goker, configures string, err error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", "", fmt.Errorf("-dir %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", "", fmt.Errorf("-dir %s is not a directory: want %s", dir, gokerLayout)
	}
	isGoker := func(d string) bool {
		for _, sub := range []string{"blocking", "nonblocking"} {
			if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
				return false
			}
		}
		return true
	}
	for _, cand := range []string{filepath.Join(dir, "gobench", "goker"), filepath.Join(dir, "goker"), dir} {
		if isGoker(cand) {
			goker = cand
			break
		}
	}
	if goker == "" {
		return "", "", fmt.Errorf("%s is not a GoBench checkout: found no goker/blocking and goker/nonblocking folders; want %s", dir, gokerLayout)
	}
	configures = filepath.Join(filepath.Dir(goker), "configures", "goker")
	for _, f := range []string{"blocking.json", "nonblocking.json"} {
		if _, err := os.Stat(filepath.Join(configures, f)); err != nil {
			return "", "", fmt.Errorf("%s is not a GoBench checkout: missing %s; want %s", dir, filepath.Join(configures, f), gokerLayout)
		}
	}
	return goker, configures, nil
}

// loadGokerKernels lists the checkout's kernels whose names match run,
// sorted by type (blocking first) then name.
func loadGokerKernels(dir string, run *regexp.Regexp) ([]*gokerKernel, error) {
	goker, configures, err := gokerRoots(dir)
	if err != nil {
		return nil, err
	}
	var out []*gokerKernel
	for _, sub := range []string{"blocking", "nonblocking"} {
		var conf map[string]struct {
			Type    string `json:"type"`
			Subtype string `json:"subtype"`
		}
		path := filepath.Join(configures, sub+".json")
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &conf); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		dirs, err := filepath.Glob(filepath.Join(goker, sub, "*", "*"))
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
				continue
			}
			project, id := filepath.Base(filepath.Dir(d)), filepath.Base(d)
			k := &gokerKernel{Name: project + "_" + id, Blocking: sub == "blocking", Src: d,
				Rel: filepath.ToSlash(filepath.Join(sub, project, id)), Readme: readmeLines(d)}
			if c, ok := conf[k.Name]; ok {
				k.Category, k.Subtype = c.Type, c.Subtype
			}
			if run == nil || run.MatchString(k.Name) {
				out = append(out, k)
			}
		}
	}
	sortGokerKernels(out)
	return out, nil
}

func sortGokerKernels(ks []*gokerKernel) {
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].Blocking != ks[j].Blocking {
			return ks[i].Blocking
		}
		return ks[i].Name < ks[j].Name
	})
}

// writeGokerModule copies the kernels' Go files into a module at dir.
func writeGokerModule(dir string, ks []*gokerKernel) error {
	// go 1.21: the kernels were written for Go 1.13-1.15; a go1.22 module
	// would change their loop variables' semantics (one per iteration).
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module goker\n\ngo 1.21\n"), 0o644); err != nil {
		return err
	}
	for _, k := range ks {
		dst := filepath.Join(dir, filepath.FromSlash(k.Rel))
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		files, err := os.ReadDir(k.Src)
		if err != nil {
			return err
		}
		n := 0
		for _, f := range files {
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(k.Src, f.Name()))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dst, f.Name()), data, 0o644); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return fmt.Errorf("kernel %s (%s) has no Go files", k.Name, k.Src)
		}
	}
	return nil
}
