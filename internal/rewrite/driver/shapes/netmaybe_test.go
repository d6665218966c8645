package shapes_test

import "testing"

// A TestMain that may listen (it starts a server only when -test.run
// selects the examples, as etcd's clientv3 starts its cluster) and did not
// by the time the tests start leaves them under control; one that did
// sends them to the real network. Either way its count of the goroutines
// left after m.Run finds none (its own is listed, morpheus's are not), or
// the package would fail outside control.
func TestTestMainMayListen(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "netmaybe", 4, 1)
	cfg.Run = "^TestEcho$"
	if ts := find(explore(t, cfg), "TestEcho"); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 4 {
		t.Errorf("TestEcho, TestMain serving nothing: %+v; want 4 schedules under control", ts)
	}
	cfg.Run = "TestEcho|Example"
	const why = "TestMain listens or dials before the tests, on the real network: net.Listen at netmaybe.go:14"
	if ts := find(explore(t, cfg), "TestEcho"); ts == nil || ts.Failure != "" || ts.Real != why || ts.Schedules != 1 {
		t.Errorf("TestEcho, TestMain serving: %+v; want one run on the real network", ts)
	}
}
