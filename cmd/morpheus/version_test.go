package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLines(t *testing.T) {
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want []string
	}{
		{"clone", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}},
			[]string{"morpheus (devel)", "go go1.26.0 ", "commit abc123 2026-01-02T03:04:05Z, with uncommitted changes (dirty)"}},
		{"installed", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}},
			[]string{"morpheus v1.2.3", "go go1.26.0 ", "commit unknown"}},
		{"clean", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "false"}}},
			[]string{"morpheus v1.2.3", "go go1.26.0 ", "commit abc123"}},
		{"replaced", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/m"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "/src/morpheus"}}}},
			[]string{"morpheus v0.0.0 => /src/morpheus (a dependency of example.com/m)"}},
		{"none", nil, []string{"morpheus unknown", "go go1."}},
	} {
		got := versionLines(c.info)
		for i, w := range c.want {
			if i >= len(got) || !strings.HasPrefix(got[i], w) {
				t.Errorf("%s: got %q, want line %d to start with %q", c.name, got, i, w)
			}
		}
		if c.name == "clean" && strings.Contains(got[2], "dirty") {
			t.Errorf("clean: %q", got[2])
		}
	}
}

// go install of cmd/morpheus from a module that replaces morpheus: the
// main module is morpheus's, replaced.
func TestVersionReplacedMain(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "/src/morpheus", Version: "(devel)"}}}
	if got := versionLines(info)[0]; got != "morpheus v0.0.0 => /src/morpheus" {
		t.Errorf("got %q", got)
	}
}
