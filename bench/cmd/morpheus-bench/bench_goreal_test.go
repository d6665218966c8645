package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestVendoredVersion(t *testing.T) {
	for imp, want := range map[string]string{
		"github.com/a/b":          "v0.0.0",
		"gopkg.in/yaml.v2":        "v2.0.0",
		"gopkg.in/cheggaaa/pb.v1": "v1.0.0",
		"example.com/m/v3":        "v3.0.0",
		"example.com/m/v1":        "v0.0.0",
		"github.com/a/b.v2":       "v0.0.0",
		"github.com/a/vx":         "v0.0.0",
	} {
		if got := vendoredVersion(imp); got != want {
			t.Errorf("vendoredVersion(%q) = %q, want %q", imp, got, want)
		}
	}
}

func TestRepoRootElems(t *testing.T) {
	for imp, want := range map[string]int{
		"github.com/a/b":          3,
		"golang.org/x/net":        3,
		"google.golang.org/grpc":  2,
		"gopkg.in/yaml.v2":        2,
		"gopkg.in/cheggaaa/pb.v1": 3,
		"fmt":                     0,
	} {
		if got := repoRootElems(imp); got != want {
			t.Errorf("repoRootElems(%q) = %d, want %d", imp, got, want)
		}
	}
}

func TestBuildFailure(t *testing.T) {
	out := "panic: encoding alphabet includes duplicate symbols\n\ngoroutine 1 [running]:\nencoding/base64.NewEncoding(...)\n\t" +
		goEnvValue("GOROOT") + "/src/encoding/base64/base64.go:82\nexample.com/codec.init()\n\t/tmp/x/vendor/example.com/codec/gen.go:125 +0xa4b\nFAIL\n"
	want := "the test binary panics as it starts: encoding alphabet includes duplicate symbols at /tmp/x/vendor/example.com/codec/gen.go:125"
	if got := buildFailure(out); got != want {
		t.Errorf("buildFailure = %q, want %q", got, want)
	}
	if got := buildFailure("# example.com/app\napp/x.go:3:1: undefined: y\nFAIL\n"); got != "app/x.go:3:1: undefined: y" {
		t.Errorf("buildFailure of a compile error = %q", got)
	}
}

func TestFixDuplicateAlphabets(t *testing.T) {
	dir := t.TempDir()
	dup := `package codec

import "encoding/base64"

var names = base64.NewEncoding("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789__")
`
	ok := `package codec

import "encoding/base64"

var std = base64.NewEncoding("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
`
	if err := os.MkdirAll(filepath.Join(dir, "vendor", "codec"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vendor/codec/gen.go", dup)
	write("std.go", ok)
	changed, err := fixDuplicateAlphabets(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0] != filepath.Join("vendor", "codec", "gen.go") {
		t.Fatalf("changed %q, want the vendored gen.go alone", changed)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "vendor", "codec", "gen.go"))
	m := base64Alphabet.FindSubmatch(got)
	if m == nil {
		t.Fatalf("no alphabet left in:\n%s", got)
	}
	alpha, _ := strconv.Unquote(string(m[1]))
	seen := map[rune]bool{}
	for _, c := range alpha {
		if seen[c] || c == '=' {
			t.Fatalf("alphabet %q still repeats or pads with %q", alpha, c)
		}
		seen[c] = true
	}
	base64.NewEncoding(alpha) // panics on a duplicate symbol
	if std, _ := os.ReadFile(filepath.Join(dir, "std.go")); string(std) != ok {
		t.Errorf("a valid alphabet was changed:\n%s", std)
	}
}
