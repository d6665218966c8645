package driver

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestShardPackagesSplitsGroups checks that the shards of a run together
// run every group of every package with tests once, and every package
// without tests once, that each shard runs P groups, and that a shard
// builds about S·P/N+1 packages (spread S), not P; with S = N, shard i runs
// group i of every package.
func TestShardPackagesSplitsGroups(t *testing.T) {
	for _, c := range []struct{ tested, plain, n, spread int }{{1, 0, 3, 1}, {2, 1, 3, 1}, {3, 0, 3, 1}, {7, 2, 4, 1},
		{2, 0, 5, 1}, {10, 3, 1, 1}, {8, 0, 4, 2}, {7, 1, 3, 2}, {4, 0, 2, 2}, {12, 0, 6, 3}} {
		t.Run(fmt.Sprintf("%d+%d/%d*%d", c.tested, c.plain, c.n, c.spread), func(t *testing.T) {
			targets, tested := map[string]string{}, map[string]bool{}
			for k := range c.tested + c.plain {
				path := fmt.Sprintf("m/p%02d", k)
				targets[path], tested[path] = "dir", k < c.tested
			}
			ran := map[string][]int{}
			plain := map[string]int{}
			for i := range c.n {
				own := shardPackages(targets, tested, Shard{i, c.n}, c.spread)
				groups, built := 0, 0
				for path, gs := range own {
					if !tested[path] {
						plain[path]++
						continue
					}
					built++
					groups += len(gs)
					ran[path] = append(ran[path], gs...)
					if c.spread == c.n && !reflect.DeepEqual(gs, []int{i}) {
						t.Errorf("shard %d/%d runs groups %v of %s, want %d alone", i, c.n, gs, path, i)
					}
				}
				if groups != c.tested {
					t.Errorf("shard %d/%d runs %d groups, want %d", i, c.n, groups, c.tested)
				}
				if limit := c.spread*c.tested/c.n + c.spread + 1; c.tested >= c.n && built > limit {
					t.Errorf("shard %d/%d builds %d packages with tests of %d, want at most %d", i, c.n, built, c.tested, limit)
				}
			}
			for path := range targets {
				if !tested[path] {
					if plain[path] != 1 {
						t.Errorf("%s, without tests, on %d shards, want 1", path, plain[path])
					}
					continue
				}
				gs := ran[path]
				slices.Sort(gs)
				if want := seq(c.n); !reflect.DeepEqual(gs, want) {
					t.Errorf("%s: groups %v ran, want %v once each", path, gs, want)
				}
			}
		})
	}
}

// TestPackageProcsAreTheUnshardedRuns checks that the processes of the
// groups of a package are the processes of one run with -jobs N*J, each
// with its shard of the schedules, whatever groups a machine holds.
func TestPackageProcsAreTheUnshardedRuns(t *testing.T) {
	for _, total := range []int{0, 100, 5} {
		var got []proc
		for g := range 3 {
			got = append(got, packageProcs(2, total, 3, []int{g})...)
		}
		all := packageProcs(2, total, 3, seq(3))
		if !reflect.DeepEqual(all, got) {
			t.Errorf("%d schedules: the groups on one machine run %v, on three %v", total, all, got)
		}
		if total != 5 {
			ks := map[int]bool{}
			for _, p := range all {
				if p.m != 6 || ks[p.k] {
					t.Errorf("%d schedules: process %d of %d, want each of 6 once", total, p.k, p.m)
				}
				ks[p.k] = true
			}
			if len(ks) != 6 {
				t.Errorf("%d schedules: %d processes, want 6", total, len(ks))
			}
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
