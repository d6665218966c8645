package driver

import (
	"slices"
	"sort"
)

// A sharded run (Config.Shard) splits the packages as well as the
// schedules. Of a package with tests, the unsharded run with -jobs N·J has
// N·J processes, process q running schedule s of every test when s is q
// modulo N·J; they fall into N groups, group g being the processes
// g+N·j, which is what shard g of N with -jobs J runs of the package when
// every shard runs every package. The groups of all packages with tests,
// P·N of them in the order of the packages' import paths and then of g,
// go to the shards in blocks of P: each shard runs P groups, every package
// lies on at most 2 shards when P ≥ N, and a shard builds only the packages
// it runs a group of (about P/N + 1 instead of P). With one package the
// blocks are the groups, one per shard, as without the split. Which shard
// runs a group changes nothing in what it runs: its schedules and seeds are
// the unsharded run's, so the merge of the shards is that run.
//
// The load and the rewrite still cover every package of the patterns: the
// rewrite of a file depends on the other packages (what they write), and a
// shard must build the binaries the unsharded run builds. A package
// without tests goes to shard k modulo N, k its place among those.

// shardPackages returns, of the packages the patterns match, those shard s
// builds, each with the groups of its processes it runs (none for a package
// without tests).
func shardPackages(targets map[string]string, tested map[string]bool, s Shard) map[string][]int {
	var withTests, without []string
	for path := range targets {
		if tested[path] {
			withTests = append(withTests, path)
		} else {
			without = append(without, path)
		}
	}
	sort.Strings(withTests)
	sort.Strings(without)
	own := map[string][]int{}
	p := len(withTests)
	for k, path := range withTests {
		for g := range s.N {
			if (k*s.N+g)/p == s.I {
				own[path] = append(own[path], g)
			}
		}
	}
	for k, path := range without {
		if k%s.N == s.I {
			own[path] = nil
		}
	}
	return own
}

// ownPaths returns the import paths of own, sorted.
func ownPaths(own map[string][]int) []string {
	var out []string
	for path := range own {
		out = append(out, path)
	}
	slices.Sort(out)
	return out
}
