package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// go test runs go vet on every package it tests before it builds the test
// binary, and a finding stops the build. The driver does the same, with the
// same analyzers, on the package as the user wrote it and with the user's
// own go.mod: the findings are go test's (the analyzers that depend on the
// go version, such as printf's check of non-constant format strings from
// go1.24 on, see the module's own go line, not the one of the alternate
// go.mod), at the user's file:line. The rewritten build itself runs with
// -vet=off.

// defaultVet are the analyzers go test runs when -vet is not given
// (cmd/go's defaultVetFlags of go1.26).
var defaultVet = []string{"atomic", "bool", "buildtags", "directive", "errorsas", "ifaceassert", "nilfunc",
	"printf", "slog", "stringintconv", "tests"}

// vetSetting is go test's -vet flag: "" for go test's default analyzers,
// "off", "all" (every analyzer of go vet) or a comma-separated list.
type vetSetting struct {
	off  bool
	list []string // the analyzers; empty with off or all
}

// ParseVet checks a -vet value as go test does: "" (go test's default
// analyzers), "off", "all", or a comma-separated list of go vet's
// analyzers (atomic,bool). Whether each name is one of go vet's analyzers
// is checked when the driver runs (checkVetNames).
func ParseVet(v string) error {
	_, err := parseVet(v)
	return err
}

func parseVet(v string) (vetSetting, error) {
	switch {
	case v == "":
		return vetSetting{list: defaultVet}, nil
	case strings.Contains(v, "="):
		return vetSetting{}, fmt.Errorf("-vet argument cannot contain equal signs")
	case strings.Contains(v, " "):
		return vetSetting{}, fmt.Errorf("-vet argument is comma-separated list, cannot contain spaces")
	}
	var s vetSetting
	single := ""
	for _, name := range strings.Split(v, ",") {
		switch name {
		case "":
			return vetSetting{}, fmt.Errorf("-vet argument contains empty list element")
		case "off", "all":
			single = name
			s.off = name == "off"
		default:
			s.list = append(s.list, name)
		}
	}
	if single != "" && strings.Contains(v, ",") {
		return vetSetting{}, fmt.Errorf("-vet does not accept %q in a list with other analyzers", single)
	}
	return s, nil
}

// flags returns go vet's flags for s: one per analyzer, none for all.
func (s vetSetting) flags() []string {
	var f []string
	for _, a := range s.list {
		f = append(f, "-"+a)
	}
	return f
}

// checkVetNames reports a name of s's list that is not one of go vet's
// analyzers (go tool vet -flags lists them), as go test rejects it.
func checkVetNames(ctx context.Context, dir string, env []string, s vetSetting) error {
	if len(s.list) == 0 || strings.Join(s.list, ",") == strings.Join(defaultVet, ",") {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", "tool", "vet", "-flags")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go tool vet -flags: %v", err)
	}
	var flags []struct {
		Name, Usage string
		Bool        bool
	}
	if err := json.Unmarshal(out, &flags); err != nil {
		return fmt.Errorf("go tool vet -flags: %v", err)
	}
	// An analyzer's flag enables it; a few are old names of one. The rest
	// (-json, -c, -printf.funcs) are not analyzers.
	known := map[string]bool{}
	for _, f := range flags {
		alias, isAlias := strings.CutPrefix(f.Usage, "deprecated alias for -")
		known[f.Name] = f.Bool && !strings.Contains(f.Name, ".") &&
			(strings.HasPrefix(f.Usage, "enable ") || isAlias && !strings.Contains(alias, "."))
	}
	for _, a := range s.list {
		if !known[a] {
			return fmt.Errorf("-vet argument must be a supported analyzer or a distinguished value; found %s", a)
		}
	}
	return nil
}

// vetPackages runs go vet on the packages as go test would before building
// their tests, in the user's module; it returns go vet's output when vet
// fails (a finding, or a package that does not compile as written). The
// driver vets all its packages at once first, and each on its own only if
// that fails, to say which failed (go vet's findings do not name their
// package; the go command caches the vet of a package that passed).
func vetPackages(ctx context.Context, dir string, env []string, s vetSetting, paths ...string) (string, bool) {
	args := append(append([]string{"vet"}, s.flags()...), paths...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) == 0 {
			out = []byte(err.Error())
		}
		return string(out), false
	}
	return "", true
}

// startVet starts go test's vet of all the packages cfg's patterns match,
// unless s is off; wait returns whether every one passed (false if vet is
// off or some failed: then each is vetted on its own before its build).
func startVet(ctx context.Context, cfg Config, env []string, s vetSetting) (wait func() bool) {
	if s.off {
		return func() bool { return false }
	}
	cfg.logf("morpheus: go vet %s", strings.Join(append(s.flags(), cfg.Patterns...), " "))
	done := make(chan bool, 1)
	go func() {
		_, ok := vetPackages(ctx, cfg.Dir, env, s, cfg.Patterns...)
		done <- ok
	}()
	return sync.OnceValue(func() bool { return <-done })
}
