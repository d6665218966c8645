package rewrite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Each construct morpheus cannot control is listed with its file and line.
func TestIssues(t *testing.T) {
	pkgs, err := Load(LoadConfig{Dir: "testdata/issues", Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range pkgs[0].Issues {
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(i.Pos.Filename), i.Pos.Line, i.What))
	}
	want := []string{
		"issues.go:11: //go:linkname",
		"issues.go:18: runtime.SetFinalizer",
		"issues.go:19: os/exec.Command",
		"issues.go:20: type assertion to net.TCPConn",
		"issues.go:23: net.ListenPacket",
		"issues.go:31: net.Dialer.DialContext as a value",
		"issues.go:37: range over a map",
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("missing %q in:\n%s", w, all)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d issues, want %d:\n%s", len(got), len(want), all)
	}
}

// A package that does not load is an error naming it.
func TestLoadError(t *testing.T) {
	_, err := Load(LoadConfig{Dir: "testdata/issues", Patterns: []string{"./nosuch"}})
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("got %v", err)
	}
}
