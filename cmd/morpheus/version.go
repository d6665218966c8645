package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print morpheus's module version, Go version and VCS commit",
		run:     runVersion,
	})
}

// modulePath is morpheus's module, whose version "morpheus version" reports.
const modulePath = "github.com/morpheus-go/morpheus"

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "morpheus version: takes no arguments")
		return errUsage
	}
	info, _ := debug.ReadBuildInfo()
	for _, l := range versionLines(info) {
		fmt.Fprintln(stdout, l)
	}
	return nil
}

// moduleVersion is m's version, and its replacement if go.mod replaced it.
func moduleVersion(m *debug.Module) string {
	v := m.Version
	if v == "" {
		v = "(devel)"
	}
	if r := m.Replace; r != nil {
		v += " => " + r.Path
		if r.Version != "" && r.Version != "(devel)" {
			v += " " + r.Version
		}
	}
	return v
}

// versionLines describes the build: morpheus's module version ("(devel)" for
// a build inside its clone without VCS stamps, v1.2.3 or a pseudo-version
// with go install ...@version or a stamped build; the version go.mod
// requires and what replaces it, when a go.mod replaces morpheus), the Go version and
// platform, and the VCS commit, its time and whether the tree had
// uncommitted changes, when go build recorded them (-buildvcs).
func versionLines(info *debug.BuildInfo) []string {
	if info == nil {
		return []string{"morpheus unknown (no build information)", "go " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	}
	mod := "unknown (not built as a module)"
	if info.Main.Path == modulePath {
		mod = moduleVersion(&info.Main)
	}
	for _, d := range info.Deps {
		if d.Path == modulePath {
			mod = moduleVersion(d) + " (a dependency of " + info.Main.Path + ")"
		}
	}
	lines := []string{"morpheus " + mod, "go " + info.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH}
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return append(lines, "commit unknown (not built from a VCS checkout, or with -buildvcs=false)")
	}
	c := "commit " + rev
	if at != "" {
		c += " " + at
	}
	if modified == "true" {
		c += ", with uncommitted changes (dirty)"
	}
	return append(lines, c)
}
