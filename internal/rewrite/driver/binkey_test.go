package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// After an edit, Prepare rebuilds the test binaries of the packages whose
// compiled files changed and reuses the others: an edit of leaf rebuilds
// leaf's and mid's (mid links leaf), not top's. (The two edits are two
// tests, from the same first build, so that neither waits for the other's
// builds.)
func TestPrepareRebuildsWhatAnEditChanged(t *testing.T) {
	t.Parallel()
	_, reused, appendTo := incrModule(t)
	reused("first build")
	appendTo("leaf/leaf.go", "\nvar _ = 1 // an edit\n")
	reused("leaf edited", "top")
}

// An edit of top that writes a variable of leaf's changes leaf's rewrite,
// so leaf's and mid's binaries are rebuilt though their source is as it
// was. The rewritten files are byte for byte those a cold rewrite of the
// edited module gives. (The cold rewrite runs after the edited module's
// build, not beside it: the two would each compile the edited packages'
// export data, which it then finds in the build cache.)
func TestPrepareRebuildsARewriteAnEditChanged(t *testing.T) {
	t.Parallel()
	cfg, reused, appendTo := incrModule(t)
	dir, env := cfg.Dir, cfg.Env
	reused("first build")
	appendTo("top/quiet.go", "package top\n\nimport \"example.com/incr/leaf\"\n\n// Hush quiets leaf.\nfunc Hush() { leaf.Quiet = true }\n")
	reused("top writes leaf.Quiet")
	reused("nothing changed") // the whole build's fingerprint: no binary is looked at

	// The overlay names each rewritten file by its source and its text:
	// a cold rewrite of the module as it is now gives the same names.
	data, err := os.ReadFile(filepath.Join(cfg.Cache, "mod", hashKey(filepath.Join(dir, "go.mod"), nil, goVersion(t)), "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var overlay struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &overlay); err != nil {
		t.Fatal(err)
	}
	pkgs, err := rewrite.Load(rewrite.LoadConfig{Dir: dir, Patterns: []string{"./..."}, Env: env, Marks: true}) // as the driver loads
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pkgs {
		for _, f := range p.Files {
			if !f.Changed {
				continue
			}
			n++
			src, _ := os.ReadFile(f.Path)
			got := overlay.Replace[f.Path]
			if want := hashKey(f.Path, src, goVersion(t), f.Out...) + ".go"; filepath.Base(got) != want {
				t.Errorf("%s: the overlay has %s, a cold rewrite %s", f.Path, got, want)
			} else if out, err := os.ReadFile(got); err != nil || !bytes.Equal(out, f.Out) {
				t.Errorf("%s: %s differs from a cold rewrite (%v)", f.Path, got, err)
			}
		}
	}
	if n == 0 || n != len(overlay.Replace) {
		t.Errorf("%d files rewritten cold, %d in the overlay", n, len(overlay.Replace))
	}
}

// incrModule copies testdata/incr for a test of Prepare's reuse, and
// returns its Config (a fresh cache), a function that runs Prepare and
// fails the test unless it reused the binaries of the packages want, and
// one that appends text to a file of the copy.
func incrModule(t *testing.T) (Config, func(why string, want ...string), func(file, text string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	proctest.WaitRuntime()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/incr")); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Cache: t.TempDir(), Log: &log, Env: env, Vet: "off"}
	reused := func(why string, want ...string) {
		t.Helper()
		log.Reset()
		pkgs, err := Prepare(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", why, err)
		}
		var got []string
		for _, p := range pkgs {
			if p.Err != nil || p.Binary == "" {
				t.Fatalf("%s: %s: %v\n%s", why, p.Path, p.Err, log.String())
			}
			if strings.Contains(log.String(), "morpheus: "+p.Path+": its test binary is built from the same files as before") {
				got = append(got, strings.TrimPrefix(p.Path, "example.com/incr/"))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: reused %q, want %q\n%s", why, got, want, log.String())
		}
	}
	appendTo := func(file, text string) {
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	return cfg, reused, appendTo
}

func goVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
