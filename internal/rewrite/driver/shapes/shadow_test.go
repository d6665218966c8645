package shapes_test

import (
	"strings"
	"testing"
)

// With the shadow standard library (the default), tests that serve with
// httptest and call with net/http's client run under control: the handlers' goroutines
// are tasks, so a race between two handlers is found and replays, a
// handler left blocked is a leak at its line, and correct tests pass. So
// do tests over TLS (httptest's TLS servers, HTTP/2, crypto/tls's
// connections, listeners and dialers): crypto/tls's stand-in takes locks
// the schedule controls. One cache holds the shadow for both packages.
func TestShadow(t *testing.T) {
	t.Parallel()
	cache := ""
	t.Run("HTTP", func(t *testing.T) {
		cfg := testdataConfig(t, "httpshadow", 30, 1)
		if cache == "" {
			cache = cfg.Cache
		}
		cfg.Cache = cache
		cfg.Env = append(cfg.Env, "MORPHEUS_SHADOW=1")
		sum := explore(t, cfg)
		for _, name := range []string{"TestServe", "TestConcurrent", "TestDumpRequest"} {
			if ts := find(sum, name); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 30 {
				t.Errorf("%s: %+v", name, ts)
			}
		}
		// A test that runs its own binary as a peer and calls it over HTTP
		// runs on the real network, where its peer is.
		const why = "exec.Cmd.Start at peer_test.go:35 (the processes it starts are on the real network)"
		if ts := find(sum, "TestPeer"); ts == nil || ts.Failure != "" || ts.Real != why || ts.Schedules != 1 {
			t.Errorf("TestPeer: %+v; want one run on the real network (%s)", ts, why)
		}
		leak := find(sum, "TestLeakyHandler")
		if leak == nil || leak.Kind != "leak" || leak.Real != "" || !strings.Contains(leak.Failure, "counter_test.go:76") {
			t.Errorf("TestLeakyHandler: want a leak of the handler at counter_test.go:76, got %+v", leak)
		}
		race := find(sum, "TestRacy")
		if race == nil || race.Kind != "race" || race.Location != "counter.go:31" {
			t.Fatalf("TestRacy: want a race at counter.go:31, got %+v", race)
		}
		rcfg := cfg
		rcfg.Replay, rcfg.Run = race.Trace, "^TestRacy$"
		rep := explore(t, rcfg)
		if got := find(rep, "TestRacy"); got == nil || got.Kind != "race" || got.Location != "counter.go:31" || !strings.Contains(got.Failure, "strategy replay") {
			t.Errorf("replay: %+v", got)
		}
	})
	t.Run("TLS", func(t *testing.T) {
		cfg := testdataConfig(t, "tlsshadow", 40, 1) // the race at schedule 25 of seed 1
		if cache == "" {
			cache = cfg.Cache
		}
		cfg.Cache = cache
		cfg.Env = append(cfg.Env, "MORPHEUS_SHADOW=1")
		sum := explore(t, cfg)
		for _, name := range []string{"TestServeTLS", "TestHTTP2", "TestEcho", "TestHandshakeTimeout", "TestHandshake", "TestDialerValue", "TestPipe"} {
			if ts := find(sum, name); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 40 {
				t.Errorf("%s: %+v", name, ts)
			}
		}
		race := find(sum, "TestRacyTLS")
		if race == nil || race.Kind != "race" || race.Location != "echo.go:45" || race.Real != "" {
			t.Fatalf("TestRacyTLS: want a race at echo.go:45, got %+v", race)
		}
		rcfg := cfg
		rcfg.Replay, rcfg.Run = race.Trace, "^TestRacyTLS$"
		rep := explore(t, rcfg)
		if got := find(rep, "TestRacyTLS"); got == nil || got.Kind != "race" || got.Location != "echo.go:45" || !strings.Contains(got.Failure, "strategy replay") {
			t.Errorf("replay: %+v", got)
		}
	})
}
