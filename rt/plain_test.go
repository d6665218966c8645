package rt_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A process that started without any of the driver's settings (a child
// a test started) runs its test once, as go test does, and fails as its
// test does.
func TestPlainRun(t *testing.T) {
	if os.Getenv("RT_PLAIN_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			fmt.Println("a schedule")
			rt.Go(func() {})
			t.Errorf("fails")
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPlainRun$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RT_PLAIN_CHILD=1", "TMPDIR="+t.TempDir())
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MORPHEUS_RT_") {
			t.Skipf("the test process has %s", kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Count(string(out), "a schedule") != 1 || !strings.Contains(string(out), "assertion failure in TestPlainRun") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// The driver's settings leave the environment of a binary with rewritten
// code (rt.Rewritten, which every rewritten file calls when initialised,
// as race_test.go does here), and stay readable by rt; MORPHEUS_STACKS, the
// user's preference, stays. (cmd/morpheus's TestEnvironmentKept checks that
// the command, which links rt, keeps them.)
func TestSettingsTaken(t *testing.T) {
	if os.Getenv("RT_SETTINGS_CHILD") != "" {
		for _, kv := range os.Environ() {
			if strings.HasPrefix(kv, "MORPHEUS_") && !strings.HasPrefix(kv, "MORPHEUS_STACKS=") {
				t.Errorf("%s is still in the environment", kv)
			}
		}
		if os.Getenv("MORPHEUS_STACKS") != "1" {
			t.Errorf("MORPHEUS_STACKS was taken")
		}
		rt.Test(t, func(t *testing.T) { fmt.Println("a schedule") })
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSettingsTaken$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RT_SETTINGS_CHILD=1", rt.EnvSchedules+"=3", "MORPHEUS_ITERATIONS=3", "MORPHEUS_STACKS=1")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), "a schedule") != 3 {
		t.Fatalf("%v\n%s", err, out)
	}
}
