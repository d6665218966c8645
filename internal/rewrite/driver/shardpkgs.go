package driver

import (
	"cmp"
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
// Config.ShardSpread S widens each package over S shards: the groups are
// ordered by g modulo S first, then by package and g, before the cut, so
// that a package's groups fall in S parts of the order (each shard then
// builds about S·P/N packages). A package whose tests take most of the run
// is shared by S shards instead of one; S = N gives each shard group i of
// every package, as with one package.
//
// A shard loads and rewrites only the closure of its packages (their
// files and those of the module packages they import), each file as the
// unsharded run rewrites it, so that its binaries are that run's: of the
// other packages it type-checks only those that may write a variable the
// closure uses (rewrite.LoadConfig.Only). A package without tests goes to
// shard k modulo N, k its place among those.

// shardPackages returns, of the packages the patterns match, those shard s
// builds, each with the groups of its processes it runs (none for a package
// without tests); spread is Config.ShardSpread.
func shardPackages(targets map[string]string, tested map[string]bool, s Shard, spread int) map[string][]int {
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
	spread = min(max(spread, 1), s.N)
	type unit struct{ k, g int }
	var units []unit
	for k := range withTests {
		for g := range s.N {
			units = append(units, unit{k, g})
		}
	}
	slices.SortFunc(units, func(a, b unit) int {
		return cmp.Or(cmp.Compare(a.g%spread, b.g%spread), cmp.Compare(a.k, b.k), cmp.Compare(a.g, b.g))
	})
	p := len(withTests)
	for at, u := range units {
		if at/p == s.I {
			path := withTests[u.k]
			own[path] = append(own[path], u.g)
		}
	}
	for _, gs := range own {
		slices.Sort(gs)
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
