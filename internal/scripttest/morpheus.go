package scripttest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
)

// Morpheus returns the Config of scripts split off cmd/morpheus's into a
// package of their own: they run in cmd/morpheus's directory, where they
// ran before, with the morpheus command built from it; $ROOT is the root of
// morpheus's source tree, found above the test's package directory.
func Morpheus(t *testing.T, cli *Command) Config {
	t.Helper()
	root := moduleRoot(t)
	dir := filepath.Join(root, "cmd", "morpheus")
	return Config{Root: root, Dir: dir, Bin: cli.Build(t, dir)}
}

// moduleRoot returns the directory of morpheus's go.mod above the working
// directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			line, _ := bufio.NewReader(f).ReadString('\n')
			f.Close()
			if strings.TrimSpace(line) == "module github.com/morpheus-go/morpheus" {
				return dir
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod of github.com/morpheus-go/morpheus above the working directory")
		}
		dir = up
	}
}

// MorpheusMain is the TestMain of a split-off script package: it runs the
// tests, as many at once as proctest.Main says, and then removes the
// command they built.
func MorpheusMain(m *testing.M, cli *Command) {
	proctest.Main()
	code := m.Run()
	cli.Remove()
	os.Exit(code)
}
