package scripttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Command is a command the scripts run, built once per test binary from
// its main package, without the race detector and without PGO, as
// cmd/morpheus's tests build the morpheus command (see their cli_test.go).
type Command struct {
	once sync.Once
	tmp  string // removed by Remove
	path string
	err  error
	out  []byte
}

// Build returns the path of the command built from the main package in
// dir, building it on the first call.
func (c *Command) Build(t *testing.T, dir string) string {
	t.Helper()
	c.once.Do(func() {
		if c.tmp, c.err = os.MkdirTemp("", "morpheus-cli"); c.err != nil {
			return
		}
		c.path = filepath.Join(c.tmp, filepath.Base(dir))
		cmd := exec.Command("go", "build", "-pgo=off", "-o", c.path, ".")
		cmd.Dir = dir
		c.out, c.err = cmd.CombinedOutput()
	})
	if c.err != nil {
		t.Fatalf("building the command in %s: %v\n%s", dir, c.err, c.out)
	}
	return c.path
}

// Remove removes the built command, once the tests are done.
func (c *Command) Remove() {
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
}
