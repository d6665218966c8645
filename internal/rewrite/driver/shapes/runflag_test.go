package shapes_test

import "testing"

// The test binary gets -test.run as go test passes it, one argument
// (-test.run=REGEXP): a TestMain that looks for that prefix in os.Args to
// decide what to set up (etcd's clientv3 starts a cluster unless the
// pattern leaves the examples out) sees it.
func TestRunFlagOneArgument(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "runflag", 1, 1)
	cfg.Run = "^TestSeesRunFlag$"
	ts := find(explore(t, cfg), "TestSeesRunFlag")
	if ts == nil {
		t.Fatal("no record of TestSeesRunFlag")
	}
	if ts.Kind != "" || ts.Failure != "" {
		t.Errorf("TestSeesRunFlag failed: %s: %s", ts.Kind, ts.Failure)
	}
}
