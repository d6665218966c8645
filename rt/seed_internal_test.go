package rt

import "testing"

// Under the driver's -jobs, every test gets a seed of its own, from its
// name, varied by the process; a seed the driver gives (for -seed) is every
// test's.
func TestBaseSeed(t *testing.T) {
	t.Setenv(EnvSeed, "")
	t.Setenv(EnvJob, "")
	if _, ok, err := baseSeed("TestA"); ok || err != nil {
		t.Fatalf("no variable set: ok %v, err %v; want the exploration's own seed from the name", ok, err)
	}
	seed := func(name, job string) uint64 {
		t.Helper()
		t.Setenv(EnvJob, job)
		s, ok, err := baseSeed(name)
		if !ok || err != nil {
			t.Fatalf("%s, job %s: ok %v, err %v", name, job, ok, err)
		}
		return s
	}
	a0, b0, a1 := seed("TestA", "0"), seed("TestB", "0"), seed("TestA", "1")
	if a0 == b0 {
		t.Errorf("two tests of one process have the same seed %#x", a0)
	}
	if a0 == a1 {
		t.Errorf("a test has the same seed %#x in two processes", a0)
	}
	if a0 != seed("TestA", "0") {
		t.Error("a test's seed is not a function of its name and process")
	}
	t.Setenv(EnvSeed, "42") // the driver's, for -seed: taken as it is
	if sa, sb := seed("TestA", "1"), seed("TestB", "0"); sa != 42 || sb != 42 {
		t.Errorf("with a seed given: %d, %d", sa, sb)
	}
	t.Setenv(EnvSeed, "")
	t.Setenv(EnvJob, "x")
	if _, _, err := baseSeed("TestA"); err == nil {
		t.Error("a bad job index is no error")
	}
}
