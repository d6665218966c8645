package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// A shadow that does not build is no failure of the user's: net/http stays
// the standard library's, and the tests that use it run once on the real
// network, as without the shadow; the next run does not build it again.
func TestShadowFallsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	proctest.WaitRuntime()
	shared := t.TempDir() // the failed build's record must not reach other tests' shadows
	defer func(old func(string) string) { sharedShadowDir = old }(sharedShadowDir)
	sharedShadowDir = func(key string) string { return filepath.Join(shared, key) }
	builds := 0
	defer func(old func(context.Context, rewrite.ShadowConfig) (*rewrite.Shadow, error)) { buildShadow = old }(buildShadow)
	buildShadow = func(context.Context, rewrite.ShadowConfig) (*rewrite.Shadow, error) {
		builds++
		return nil, errors.New("a shadow that does not build")
	}
	var logged strings.Builder
	cfg := Config{Dir: "../testdata/httpshadow", Patterns: []string{"."}, Cache: t.TempDir(), Run: "^TestServe$",
		Schedules: 5, Jobs: 1, Seed: 1, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "MORPHEUS_SHADOW=1"),
		Log: &logged}
	for range 2 {
		cfg.Schedules++ // a run of its own, not the cached outcome
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Packages) != 1 || sum.Packages[0].Err != nil {
			t.Fatalf("%+v", sum.Packages)
		}
		var ts *TestSummary
		for _, x := range sum.Packages[0].Tests {
			if x.Name == "TestServe" {
				ts = x
			}
		}
		if ts == nil || ts.Failure != "" || !strings.Contains(ts.Real, "httptest.NewServer") {
			t.Errorf("TestServe: want a pass on the real network, got %+v", ts)
		}
	}
	if builds != 1 {
		t.Errorf("the shadow was built %d times, want once", builds)
	}
	if !strings.Contains(logged.String(), "a shadow that does not build") {
		t.Errorf("log does not say why:\n%s", logged.String())
	}
}

// The shadow is on unless the environment turns it off, and needed only by
// a run whose tests link net/http (or whose links are not known).
func TestShadowSwitch(t *testing.T) {
	for v, on := range map[string]bool{"": true, "1": true, "true": true, "0": false, "false": false, "off": false, "OFF": false, "no": false} {
		env := []string{"HOME=/h"}
		if v != "" {
			env = append(env, shadowEnv+"="+v)
		}
		if got := shadowOn(env); got != on {
			t.Errorf("%s=%q: shadowOn %v, want %v", shadowEnv, v, got, on)
		}
	}
	http := &sources{deps: map[string][]string{"a.test": {"fmt", "net/http", "a"}, "b.test": {"fmt"}}}
	plain := &sources{deps: map[string][]string{"b.test": {"fmt", "net", "net/http/internal"}}}
	if !shadowNeeded(nil) || !shadowNeeded(http) || shadowNeeded(plain) {
		t.Errorf("shadowNeeded: nil %v, with net/http %v, without %v; want true, true, false", shadowNeeded(nil), shadowNeeded(http), shadowNeeded(plain))
	}
}
