package procenv

import (
	"os"
	"strings"
	"testing"
)

// Taken variables leave the environment and stay readable through Lookup;
// one set afterwards wins.
func TestTake(t *testing.T) {
	t.Setenv("PROCENV_TEST_A", "1")
	t.Setenv("PROCENV_OTHER", "2")
	Take(func(k string) bool { return strings.HasPrefix(k, "PROCENV_TEST_") })
	if _, ok := os.LookupEnv("PROCENV_TEST_A"); ok {
		t.Error("PROCENV_TEST_A is still in the environment")
	}
	if v, ok := Lookup("PROCENV_TEST_A"); !ok || v != "1" {
		t.Errorf("Lookup: %q, %v", v, ok)
	}
	if v, _ := Lookup("PROCENV_OTHER"); v != "2" || os.Getenv("PROCENV_OTHER") != "2" {
		t.Errorf("PROCENV_OTHER was taken: %q", v)
	}
	if !Taken(func(k string) bool { return k == "PROCENV_TEST_A" }) || Taken(func(k string) bool { return k == "PROCENV_OTHER" }) {
		t.Error("Taken")
	}
	os.Setenv("PROCENV_TEST_A", "3")
	defer os.Unsetenv("PROCENV_TEST_A")
	if v, _ := Lookup("PROCENV_TEST_A"); v != "3" {
		t.Errorf("a variable set after Take: %q", v)
	}
}
