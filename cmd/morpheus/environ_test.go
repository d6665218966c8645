package main

import (
	"os"
	"os/exec"
	"testing"
)

// The command links rt (through the driver), which takes the driver's
// settings out of the environment of a binary with rewritten code: the
// command's own environment must stay whole, since it hands it to the test
// processes it starts (MORPHEUS_RT_SHRINK=0 in the environment of morpheus
// rewrite turns shrinking off).
func TestEnvironmentKept(t *testing.T) {
	if os.Getenv("MORPHEUS_ENV_CHILD") != "" {
		if os.Getenv("MORPHEUS_RT_SHRINK") != "0" || os.Getenv("MORPHEUS_ITERATIONS") != "3" {
			t.Fatal("the command's environment lost the driver's settings")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentKept$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MORPHEUS_ENV_CHILD=1", "MORPHEUS_RT_SHRINK=0", "MORPHEUS_ITERATIONS=3")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
