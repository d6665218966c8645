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
		"issues.go:20: type assertion to net.TCPConn: the in-memory network's connections",
		"issues.go:24: net.ListenTCP: its result is used as the concrete type at issues.go:24",
		"issues.go:35: net.ListenConfig.Listen as a value",
		"issues.go:41: range over a map",
		"issues_test.go:11: TestServe runs once on the real network and real time, not under control: httptest.NewServer at issues_test.go:17",
		"issues_test.go:33: TestRoundTrip runs once on the real network and real time, not under control: http.DefaultTransport at issues_test.go:35",
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
