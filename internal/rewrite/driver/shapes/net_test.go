package shapes_test

import (
	"strings"
	"testing"
)

// One network per test (testdata/netshapes): a test whose listens and
// dials are all package net's runs on the in-memory network under
// control, ListenTCP and a Dialer's method value included; one that
// reaches httptest, net/http's client or a listener kept as a concrete
// type runs once on the real network, told so, and passes or fails as go
// test has it, with the shadow standard library turned off
// (MORPHEUS_SHADOW=0; on, net/http's run under control: TestShadowHTTP).
func TestOneNetworkPerTest(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "netshapes", 10, 1)
	cfg.Env = append(cfg.Env, "MORPHEUS_SHADOW=0")
	sum := explore(t, cfg)
	p := sum.Packages[0]
	for _, name := range []string{"TestListenTCPDialTimeout", "TestUDPEcho", "TestRefusedAndInUse", "TestNetPipe"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 10 {
			t.Errorf("%s under control: %+v", name, ts)
		}
	}
	real := map[string]string{
		"TestHTTPGet":          "httptest.NewServer at netshapes_test.go:90",
		"TestTransportDialer":  "httptest.NewServer at netshapes_test.go:105",
		"TestConcreteListener": "net.ListenTCP at netshapes.go:57",
		"TestIOPipe":           "io.Pipe at netshapes_test.go:160",
		"TestAssertedListener": "type assertion to *net.TCPListener at netshapes.go:82",
		"TestSharedListener":   "shared is set up before the tests, on the real network: net.Listen at netshapes_test.go:172",
	}
	for name, why := range real {
		ts := find(sum, name)
		if ts == nil || ts.Failure != "" || ts.Real != why || ts.Schedules != 1 {
			t.Errorf("%s on the real network (%s): %+v", name, why, ts)
		}
	}
	f := find(sum, "TestRealFails")
	if f == nil || f.Kind != "real" || !strings.Contains(f.Failure, "netshapes_test.go:141: served at httptest, failing on purpose") {
		t.Errorf("TestRealFails: %+v", f)
	}
	issues := strings.Join(func() []string {
		var s []string
		for _, i := range p.Issues {
			s = append(s, i.String())
		}
		return s
	}(), "\n")
	for _, want := range []string{
		"netshapes_test.go:89:6: TestHTTPGet runs once on the real network and real time, not under control: httptest.NewServer at netshapes_test.go:90",
		"netshapes.go:57:13: net.ListenTCP: its result is used as the concrete type at netshapes.go:57",
	} {
		if !strings.Contains(issues, want) {
			t.Errorf("-list lacks %q:\n%s", want, issues)
		}
	}
}

// A listener TestMain makes is real (TestMain runs outside control), so
// every test of its package runs on the real network.
func TestTestMainNetwork(t *testing.T) {
	t.Parallel()
	sum := explore(t, testdataConfig(t, "netmain", 4, 1))
	ts := find(sum, "TestDial")
	if ts == nil || ts.Failure != "" || ts.Real != "TestMain listens or dials before the tests, on the real network: net.Listen at netmain_test.go:18" {
		t.Errorf("TestDial: %+v", ts)
	}
}
