package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// Tests that call morpheus.Check themselves are not wrapped by the
// rewriter (see rewrite.CheckTests): Check explores them in the test
// processes as under go test, reading its settings (MORPHEUS_ITERATIONS,
// MORPHEUS_PROGRESS, …) from Config.Env. The driver makes each process run
// a shard of each Check's iterations (MORPHEUS_SHARD), so that the
// processes share a Check's iterations as they share a rewritten test's
// schedules, and collects the result records each process appends to its
// own file (MORPHEUS_RESULTS), merged into one record per Check
// (PackageSummary.Checks), as morpheus merge does.

// Environment variables of morpheus.Check that the driver sets per process.
const (
	envResults = "MORPHEUS_RESULTS"
	envShard   = "MORPHEUS_SHARD"
)

func checkFile(dir string, j int) string { return filepath.Join(dir, fmt.Sprintf("checks%d.jsonl", j)) }

// checkEnv is the environment that makes process j run shard k of m of
// each Check's iterations (and of each rewritten test's schedules, see
// rt's envShard) and keep its Check records under dir.
func checkEnv(dir string, j, k, m int) []string {
	env := []string{envResults + "=" + checkFile(dir, j)}
	if m > 1 {
		env = append(env, fmt.Sprintf("%s=%d/%d", envShard, k, m))
	}
	return env
}

// readChecks merges the records the processes procs wrote. A process that died
// leaves its shards out (a partial merge): the package's error says so.
func readChecks(dir string, procs []int) ([]*results.Record, error) {
	var all []*results.Record
	for _, j := range procs {
		recs, err := results.ReadFile(checkFile(dir, j))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		all = append(all, recs...)
	}
	if len(all) == 0 {
		return nil, nil
	}
	return results.Merge(all, true)
}

// checkFailed reports whether a merged Check record is a failure.
func checkFailed(r *results.Record) bool { return r.Failures > 0 || r.Failure != nil }

func anyCheckFailed(rs []*results.Record) bool {
	for _, r := range rs {
		if checkFailed(r) {
			return true
		}
	}
	return false
}

// pinMorpheus makes the alternate go.mod at alt require morpheus at the
// version its replacement (the tool's source) stands for, dropping the
// user's own requirement and replacement of it: a module whose tests call
// morpheus.Check requires morpheus, and the rewritten code and rt must be
// the tool's. The user's Check tests therefore run against the tool's
// morpheus, not the version their go.mod names.
func pinMorpheus(ctx context.Context, alt string, env []string) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-droprequire=github.com/morpheus-go/morpheus",
		"-dropreplace=github.com/morpheus-go/morpheus", alt)
	cmd.Dir, cmd.Env = filepath.Dir(alt), env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod edit %s: %v\n%s", alt, err, out)
	}
	return nil
}

// withUnrewritten adds to pkgs the target packages the rewriter left alone
// (morpheus's own, excluded ones): their tests are built and run as they
// are, so that their Checks run and a failure shows, instead of the
// package being skipped without a word.
func withUnrewritten(pkgs []*rewrite.Package, targets map[string]string) []*rewrite.Package {
	have := map[string]bool{}
	for _, p := range pkgs {
		have[p.Path] = true
	}
	out := pkgs
	for path := range targets {
		if !have[path] {
			out = append(out, &rewrite.Package{Path: path})
		}
	}
	slices.SortFunc(out, func(a, b *rewrite.Package) int { return strings.Compare(a.Path, b.Path) })
	return out
}
