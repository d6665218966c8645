package morpheus

import "testing"

// Every setting is read from its MORPHEUS_* variable; -morpheus.v is an
// alias of -morpheus.verbose.
func TestSettingsEnvironment(t *testing.T) {
	t.Setenv("MORPHEUS_VERBOSE", "2")
	t.Setenv("MORPHEUS_COVERAGE", "true")
	t.Setenv("MORPHEUS_EARLYTIMERS", "3")
	c := defaultConfig()
	if err := applyOverrides(c); err != nil {
		t.Fatal(err)
	}
	if c.Verbose != 2 || c.Coverage != 1 || c.Early != 3 {
		t.Errorf("verbose %d, coverage %d, early timers %d; want 2, 1, 3", c.Verbose, c.Coverage, c.Early)
	}
	t.Setenv("MORPHEUS_COVERAGE", "false")
	if err := applyOverrides(c); err != nil || c.Coverage != -1 {
		t.Errorf("MORPHEUS_COVERAGE=false: coverage %d, %v; want -1", c.Coverage, err)
	}
	t.Setenv("MORPHEUS_COVERAGE", "often")
	if err := applyOverrides(c); err == nil {
		t.Error("MORPHEUS_COVERAGE=often: no error")
	}
}

func TestSettingAliases(t *testing.T) {
	var verbose *setting
	for _, s := range settings {
		if s.name == "verbose" {
			verbose = s
		}
	}
	if verbose == nil {
		t.Fatal("no verbose setting")
	}
	for _, set := range []map[string]bool{{"morpheus.verbose": true}, {"morpheus.v": true}} {
		if !verbose.flagSet(set) {
			t.Errorf("%v does not set -morpheus.verbose", set)
		}
	}
	if verbose.flagSet(map[string]bool{"morpheus.vv": true}) {
		t.Error("-morpheus.vv sets -morpheus.verbose")
	}
}
