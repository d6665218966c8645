package main

import "testing"

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
